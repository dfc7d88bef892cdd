package io.mcpvertx.server.impl.features;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.networknt.schema.JsonMetaSchema;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.NonValidationKeyword;
import com.networknt.schema.OutputFormat;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.mcpvertx.jsonrpc.JsonNodes;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
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
    JsonNode node = toNode(instance);
    // Valid arguments, nearly every call, are told by the fail-fast boolean pass, which collects no messages; only
    // invalid ones are validated again for their sentences.
    if (schema.validate(node, OutputFormat.BOOLEAN)) {
      return List.of();
    }
    Set<ValidationMessage> messages = schema.validate(node);
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
    return JsonNodes.of(value, JsonSchemas::otherNode);
  }

  /** What JSON has no type for: another number type as a double, anything else as its text. */
  private static JsonNode otherNode(Object value) {
    return value instanceof Number n ? NODES.numberNode(n.doubleValue()) : NODES.textNode(String.valueOf(value));
  }
}
