/**
 * Tools, prompts, resources, resource templates and completions written as annotated Java methods, with JSON
 * Schemas generated from their parameter and return types. Only the API package is exported; {@code impl} is
 * internal.
 */
module io.mcpvertx.annotations {
  requires transitive io.mcpvertx.runtime;
  requires transitive io.mcpvertx.verticles;
  requires com.fasterxml.classmate;
  requires com.fasterxml.jackson.annotation;
  requires com.fasterxml.jackson.core;
  requires com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.datatype.jdk8;
  requires com.github.victools.jsonschema.generator;
  requires com.github.victools.jsonschema.module.jackson;
  requires com.networknt.schema;
  requires org.slf4j;

  exports io.mcpvertx.annotations;
}
