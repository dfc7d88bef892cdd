package io.mcpvertx.server.impl.features;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonMetaSchema;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.NonValidationKeyword;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compiles and applies JSON Schemas with networknt's validator. Schemas default to draft 2020-12, MCP's default
 * dialect; a schema's own {@code $schema} wins.
 *
 * <p>Schemas are compiled once, at registration, so a call pays only for validation.
 */
public final class JsonSchemas {

  /**
   * Draft 2020-12 by default, every dialect knowing MCP's annotation keywords: {@code x-mcp-header} (2026-07-28,
   * arguments mirrored in HTTP headers) validates nothing, and is not reported as an unknown keyword.
   */
  private static final JsonSchemaFactory FACTORY = JsonSchemaFactory
      .builder(JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012))
      .metaSchemas(List.of(JsonMetaSchema.getV4(), JsonMetaSchema.getV6(), JsonMetaSchema.getV7(),
              JsonMetaSchema.getV201909(), JsonMetaSchema.getV202012()).stream()
          .map(meta -> JsonMetaSchema.builder(meta).keyword(new NonValidationKeyword("x-mcp-header")).build())
          .toList())
      .build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsonSchemas() {
  }

  /** Compiles a schema, failing with {@link IllegalArgumentException} if it is not one. */
  public static JsonSchema compile(JsonObject schema) {
    try {
      JsonSchema compiled = FACTORY.getSchema(toNode(schema));
      compiled.initializeValidators();
      return compiled;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("Invalid JSON Schema: " + e.getMessage(), e);
    }
  }

  /** The violations, each as a readable sentence with its JSON path; empty when the instance is valid. */
  static List<String> validate(JsonSchema schema, Object instance) {
    Set<ValidationMessage> messages = schema.validate(toNode(instance));
    if (messages.isEmpty()) {
      return List.of();
    }
    List<String> errors = new ArrayList<>(messages.size());
    for (ValidationMessage message : messages) {
      errors.add(message.getMessage());
    }
    return errors;
  }

  /** Converts Vert.x JSON values (and the maps and lists inside them) to Jackson nodes without re-parsing. */
  static JsonNode toNode(Object value) {
    if (value == null) {
      return NODES.nullNode();
    }
    if (value instanceof JsonObject json) {
      return toNode(json.getMap());
    }
    if (value instanceof JsonArray array) {
      return toNode(array.getList());
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode node = NODES.objectNode();
      map.forEach((k, v) -> node.set(String.valueOf(k), toNode(v)));
      return node;
    }
    if (value instanceof List<?> list) {
      ArrayNode node = NODES.arrayNode(list.size());
      list.forEach(v -> node.add(toNode(v)));
      return node;
    }
    if (value instanceof String s) {
      return NODES.textNode(s);
    }
    if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (value instanceof Integer i) {
      return NODES.numberNode(i);
    }
    if (value instanceof Long l) {
      return NODES.numberNode(l);
    }
    if (value instanceof Double d) {
      return NODES.numberNode(d);
    }
    if (value instanceof Float f) {
      return NODES.numberNode(f);
    }
    if (value instanceof BigInteger b) {
      return NODES.numberNode(b);
    }
    if (value instanceof BigDecimal b) {
      return NODES.numberNode(b);
    }
    if (value instanceof Number n) {
      return NODES.numberNode(n.doubleValue());
    }
    return NODES.textNode(String.valueOf(value));
  }
}
