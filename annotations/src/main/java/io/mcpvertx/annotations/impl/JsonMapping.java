package io.mcpvertx.annotations.impl;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * The one Jackson mapper of annotated handlers, and the conversions between Vert.x JSON values and Jackson trees
 * (done member by member, never by encoding and parsing again).
 *
 * <p>Unknown members are ignored when binding: the input schema is the gate, and it leaves nested objects open.
 * Absent values are left out when writing, so an empty {@code Optional} or a null member is not sent as null.
 */
public final class JsonMapping {

  static final ObjectMapper MAPPER = new ObjectMapper()
      .registerModule(new Jdk8Module())
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
      .setSerializationInclusion(JsonInclude.Include.NON_ABSENT);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsonMapping() {
  }

  /** A Vert.x JSON value (or the maps and lists inside one) as a Jackson node. */
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
    return MAPPER.valueToTree(value);
  }

  /** A Jackson object node as a Vert.x JSON object. */
  @SuppressWarnings("unchecked")
  static JsonObject toJsonObject(JsonNode node) {
    return new JsonObject(MAPPER.convertValue(node, Map.class));
  }

  /** A Java value written as JSON text (a string stays itself). */
  static String toText(Object value) {
    if (value instanceof String s) {
      return s;
    }
    try {
      return MAPPER.writeValueAsString(value);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot write " + value.getClass().getName() + " as JSON", e);
    }
  }
}
