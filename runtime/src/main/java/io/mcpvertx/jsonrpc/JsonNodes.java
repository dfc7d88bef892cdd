package io.mcpvertx.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Vert.x JSON values as Jackson trees, converted member by member (no text in between): what libraries built on
 * Jackson (JSON Schema validators, data binding) read.
 */
public final class JsonNodes {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsonNodes() {
  }

  /**
   * {@code value} as a node: a {@link JsonObject}, {@link JsonArray}, or the maps, lists, strings, booleans and
   * numbers inside them; anything else (at any depth) is given to {@code other}.
   */
  public static JsonNode of(Object value, Function<Object, JsonNode> other) {
    if (value == null) {
      return NODES.nullNode();
    }
    if (value instanceof JsonObject json) {
      return of(json.getMap(), other);
    }
    if (value instanceof JsonArray array) {
      return of(array.getList(), other);
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode node = NODES.objectNode();
      map.forEach((k, v) -> node.set(String.valueOf(k), of(v, other)));
      return node;
    }
    if (value instanceof List<?> list) {
      ArrayNode node = NODES.arrayNode(list.size());
      list.forEach(v -> node.add(of(v, other)));
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
    return other.apply(value);
  }
}
