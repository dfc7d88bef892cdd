/**
 * The smallest useful server: a tool, a resource template and a prompt over stdio; written with the builder
 * ({@code HelloServer}) and with annotations ({@code AnnotatedHelloServer}).
 */
package io.mcpvertx.examples.hello;
