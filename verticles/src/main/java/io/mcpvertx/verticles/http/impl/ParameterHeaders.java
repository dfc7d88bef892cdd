package io.mcpvertx.verticles.http.impl;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code Mcp-Param-*} headers a tool's input schema asks for: each property with {@code x-mcp-header}, at any
 * depth reachable through {@code properties} alone, in the order a depth-first walk of the schema meets them (a
 * property's own header before those of its nested properties). Found once per schema rather than by walking the
 * schema on every call; most tools declare none, and then a call costs one lookup.
 *
 * <p>Plans are kept per schema instance, as the registry keeps the schema's compiled validator: a schema changed in
 * place after its tool was registered is not seen by either. Thread-safe: plans are immutable, and the cache is
 * emptied when it reaches {@value #MAX_CACHED} schemas (tools replaced over and over would otherwise pin their old
 * schemas).
 */
final class ParameterHeaders {

  private static final int MAX_CACHED = 1024;
  private static final ParameterHeaders NONE = new ParameterHeaders(List.of());
  private static final Map<SchemaKey, ParameterHeaders> PLANS = new ConcurrentHashMap<>();

  /** One header: its name's suffix, the argument's dotted name (for messages) and its path in the arguments. */
  record Header(String suffix, String argument, String[] path) {
  }

  private final List<Header> headers;

  private ParameterHeaders(List<Header> headers) {
    this.headers = headers;
  }

  /** The plan of {@code schema}, found on its first use. */
  static ParameterHeaders of(JsonObject schema) {
    SchemaKey key = new SchemaKey(schema);
    ParameterHeaders plan = PLANS.get(key);
    if (plan == null) {
      plan = find(schema);
      if (PLANS.size() >= MAX_CACHED) {
        PLANS.clear();
      }
      PLANS.put(key, plan);
    }
    return plan;
  }

  List<Header> headers() {
    return headers;
  }

  /**
   * The value at {@code path} of the arguments, or null when it is absent or a step on the way is not an object
   * (a value that is not an object has no members to carry a header).
   */
  static Object valueAt(Object arguments, String[] path) {
    Object value = arguments;
    for (String step : path) {
      if (!(value instanceof JsonObject object)) {
        return null;
      }
      value = object.getValue(step);
    }
    return value;
  }

  private static ParameterHeaders find(JsonObject schema) {
    List<Header> found = new ArrayList<>();
    collect(schema, new ArrayList<>(), found);
    return found.isEmpty() ? NONE : new ParameterHeaders(List.copyOf(found));
  }

  private static void collect(JsonObject schema, List<String> path, List<Header> found) {
    if (!(schema.getValue("properties") instanceof JsonObject properties)) {
      return;
    }
    for (Map.Entry<String, Object> entry : properties) {
      if (!(entry.getValue() instanceof JsonObject property)) {
        continue;
      }
      path.add(entry.getKey());
      if (property.getValue("x-mcp-header") instanceof String suffix) {
        found.add(new Header(suffix, String.join(".", path), path.toArray(new String[0])));
      }
      if (property.getValue("properties") instanceof JsonObject) {
        collect(property, path, found);
      }
      path.remove(path.size() - 1);
    }
  }

  /** A schema by identity: equal schemas of two tools are two entries, and no lookup hashes a schema's content. */
  private record SchemaKey(JsonObject schema) {

    @Override
    public boolean equals(Object other) {
      return other instanceof SchemaKey key && key.schema == schema;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(schema);
    }
  }
}
