package io.mcpvertx.annotations.impl;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mcpvertx.server.content.Content;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.json.JsonObject;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.List;

/**
 * How a tool method's value becomes a {@link ToolResult}, decided once from its return type: as it is, text,
 * content blocks, nothing, or structured content with an output schema (a record, bean or map, whose JSON is
 * also sent as text for clients without structured output); any other value as its JSON text.
 */
final class ToolReturn {

  private enum Kind { RESULT, EMPTY, TEXT, BLOCK, BLOCKS, STRUCTURED, JSON_TEXT }

  private final Kind kind;
  private final ReturnType type;
  private final JsonObject outputSchema;

  private ToolReturn(Kind kind, ReturnType type, JsonObject outputSchema) {
    this.kind = kind;
    this.type = type;
    this.outputSchema = outputSchema;
  }

  static ToolReturn of(Method method) {
    ReturnType type = ReturnType.of(method);
    Class<?> raw = type.raw();
    if (raw == ToolResult.class) {
      return new ToolReturn(Kind.RESULT, type, null);
    }
    if (type.isVoid()) {
      return new ToolReturn(Kind.EMPTY, type, null);
    }
    if (raw == String.class) {
      return new ToolReturn(Kind.TEXT, type, null);
    }
    if (Content.class.isAssignableFrom(raw)) {
      return new ToolReturn(Kind.BLOCK, type, null);
    }
    if (Collection.class.isAssignableFrom(raw) && type.element() != null
        && Content.class.isAssignableFrom(type.element())) {
      return new ToolReturn(Kind.BLOCKS, type, null);
    }
    if (raw == JsonObject.class) {
      return new ToolReturn(Kind.STRUCTURED, type, null);
    }
    if (raw == Object.class) {
      throw Where.problem(method, "returns Object: declare the type it returns, so that its schema can be made");
    }
    if (raw.isPrimitive() || raw.isEnum() || raw.isArray() || Number.class.isAssignableFrom(raw)
        || raw == Boolean.class || raw == Character.class || Collection.class.isAssignableFrom(raw)) {
      return new ToolReturn(Kind.JSON_TEXT, type, null);
    }
    ObjectNode schema = TypeSchemas.of(type.value());
    if (!TypeSchemas.isObject(schema)) {
      return new ToolReturn(Kind.JSON_TEXT, type, null);
    }
    return new ToolReturn(Kind.STRUCTURED, type, JsonMapping.toJsonObject(schema));
  }

  boolean async() {
    return type.async();
  }

  /** The output schema, or null when the result is not structured (or is a JsonObject of no declared shape). */
  JsonObject outputSchema() {
    return outputSchema;
  }

  @SuppressWarnings("unchecked")
  ToolResult convert(Object value) {
    if (value == null && kind != Kind.RESULT) {
      return new ToolResult(List.of(), null, false, null);
    }
    switch (kind) {
      case RESULT:
        return value == null ? new ToolResult(List.of(), null, false, null) : (ToolResult) value;
      case EMPTY:
        return new ToolResult(List.of(), null, false, null);
      case TEXT:
        return ToolResult.text((String) value);
      case BLOCK:
        return ToolResult.of((Content) value);
      case BLOCKS:
        return new ToolResult(List.copyOf((Collection<Content>) value), null, false, null);
      case STRUCTURED:
        JsonObject json = value instanceof JsonObject object ? object
            : JsonMapping.toJsonObject(JsonMapping.MAPPER.valueToTree(value));
        return ToolResult.structured(json);
      default:
        return ToolResult.text(JsonMapping.toText(value));
    }
  }
}
