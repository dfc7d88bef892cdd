package io.mcpvertx.annotations.impl;

import com.fasterxml.classmate.ResolvedType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.victools.jsonschema.generator.FieldScope;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaBuilder;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfig;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.module.jackson.JacksonModule;
import com.github.victools.jsonschema.module.jackson.JacksonOption;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.Optional;

/**
 * JSON Schemas (draft 2020-12) of Java types, as the annotated handlers' input and output schemas use them.
 * Records, beans, enums, {@code Optional}, collections, maps and nested types are described the way Jackson binds
 * them; descriptions come from Jackson's {@code @JsonPropertyDescription} and {@code @JsonClassDescription}. A member
 * is required unless it is an {@code Optional} or annotated {@code @Nullable} (any annotation of that simple name,
 * on the member or its type); a nullable member also admits null. Types used more than once, or recursively, go
 * to {@code $defs}.
 *
 * <p>Generation happens at registration only; the generator is safe to share.
 */
final class TypeSchemas {

  static final String DEFS = "$defs";

  private static final SchemaGenerator GENERATOR = new SchemaGenerator(config());

  private TypeSchemas() {
  }

  private static SchemaGeneratorConfig config() {
    SchemaGeneratorConfigBuilder builder = new SchemaGeneratorConfigBuilder(JsonMapping.MAPPER,
        SchemaVersion.DRAFT_2020_12, OptionPreset.PLAIN_JSON)
        .with(new JacksonModule(JacksonOption.RESPECT_JSONPROPERTY_REQUIRED))
        .with(Option.MAP_VALUES_AS_ADDITIONAL_PROPERTIES)
        .without(Option.SCHEMA_VERSION_INDICATOR);
    builder.forFields()
        .withRequiredCheck(field -> !isOptional(field) && !isNullable(field))
        .withNullableCheck(field -> isNullable(field) ? Boolean.TRUE : null);
    return builder.build();
  }

  /** The schema of {@code type} on its own, with its {@code $defs}. */
  static ObjectNode of(Type type) {
    return GENERATOR.generateSchema(type);
  }

  /**
   * Schemas of several types that share one {@code $defs}: each {@link #reference} is filled in by
   * {@link #definitions()}, after which the references are complete.
   */
  static final class Shared {
    private final SchemaBuilder builder = GENERATOR.buildMultipleSchemaDefinitions();

    ObjectNode reference(Type type) {
      return builder.createSchemaReference(type);
    }

    /** The definitions the references point to (empty when every type was inlined). */
    ObjectNode definitions() {
      return builder.collectDefinitions(DEFS);
    }
  }

  /** Whether the type's schema is a JSON object: only those can be an output schema. */
  static boolean isObject(JsonNode schema) {
    return "object".equals(schema.path("type").asText(null));
  }

  static boolean isNullable(AnnotatedElement element) {
    return element != null && hasNullable(element.getAnnotations());
  }

  static boolean hasNullable(Annotation[] annotations) {
    return Arrays.stream(annotations).anyMatch(a -> a.annotationType().getSimpleName().equals("Nullable"));
  }

  private static boolean isOptional(FieldScope field) {
    ResolvedType type = field.getDeclaredType();
    return type.isInstanceOf(Optional.class);
  }

  private static boolean isNullable(FieldScope field) {
    Field raw = field.getRawMember();
    return hasNullable(raw.getAnnotations()) || hasNullable(raw.getAnnotatedType().getAnnotations());
  }
}
