package io.mcpvertx.annotations.impl;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.TextNode;
import io.mcpvertx.protocol.McpException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One tool argument bound to a method parameter: read from the validated arguments, converted by Jackson (plain
 * strings, numbers and booleans without it), the default applied when absent, wrapped in {@code Optional} when the
 * parameter is one. A value Jackson cannot convert is the caller's mistake: -32602 naming the argument.
 */
final class JsonArgument {

  private final String name;
  private final Class<?> raw;
  private final ObjectReader reader;
  private final boolean optional;
  private final JsonNode defaultValue;

  JsonArgument(String name, JavaType type, boolean optional, JsonNode defaultValue) {
    this.name = name;
    this.raw = type.getRawClass();
    this.reader = JsonMapping.MAPPER.readerFor(type);
    this.optional = optional;
    this.defaultValue = defaultValue;
  }

  /** The default as written in the annotation: the text itself for strings and enums, else JSON. */
  static JsonNode parseDefault(String text, JavaType type) throws Exception {
    Class<?> raw = type.getRawClass();
    JsonNode node = raw == String.class || raw.isEnum() ? TextNode.valueOf(text) : JsonMapping.MAPPER.readTree(text);
    JsonMapping.MAPPER.readerFor(type).readValue(node); // fails here, at registration, if it does not fit the type
    return node;
  }

  String name() {
    return name;
  }

  Object bind(JsonObject arguments) {
    Object value = arguments.getValue(name);
    Object bound;
    if (value == null) {
      bound = defaultValue == null ? null : read(defaultValue);
    } else {
      bound = convert(value);
    }
    return optional ? Optional.ofNullable(bound) : bound;
  }

  @SuppressWarnings("unchecked")
  private Object convert(Object value) {
    if (raw == String.class && value instanceof String) {
      return value;
    }
    if ((raw == Integer.class || raw == int.class) && value instanceof Integer) {
      return value;
    }
    if ((raw == Long.class || raw == long.class) && (value instanceof Integer || value instanceof Long)) {
      return ((Number) value).longValue();
    }
    if ((raw == Double.class || raw == double.class) && value instanceof Number number) {
      return number.doubleValue();
    }
    if ((raw == Boolean.class || raw == boolean.class) && value instanceof Boolean) {
      return value;
    }
    if (raw == JsonObject.class) {
      return value instanceof JsonObject ? value : new JsonObject((Map<String, Object>) value);
    }
    if (raw == JsonArray.class) {
      return value instanceof JsonArray ? value : new JsonArray((List<Object>) value);
    }
    return read(JsonMapping.toNode(value));
  }

  private Object read(JsonNode node) {
    try {
      return reader.readValue(node);
    } catch (Exception e) {
      throw McpException.invalidParams("Argument '" + name + "' cannot be read as " + raw.getSimpleName());
    }
  }
}
