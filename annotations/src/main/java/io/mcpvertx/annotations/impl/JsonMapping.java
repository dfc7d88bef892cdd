package io.mcpvertx.annotations.impl;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import io.mcpvertx.jsonrpc.JsonNodes;
import io.vertx.core.json.JsonObject;
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

  private JsonMapping() {
  }

  /** A Vert.x JSON value (or the maps and lists inside one) as a Jackson node; other objects by data binding. */
  static JsonNode toNode(Object value) {
    return JsonNodes.of(value, MAPPER::valueToTree);
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
