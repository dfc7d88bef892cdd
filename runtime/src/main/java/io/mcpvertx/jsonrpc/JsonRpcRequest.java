package io.mcpvertx.jsonrpc;

import io.vertx.core.json.JsonObject;
import java.util.Objects;

/** A request: it has an id and a method, and expects exactly one response. */
public record JsonRpcRequest(JsonRpcId id, String method, JsonObject params) implements JsonRpcMessage {

  public JsonRpcRequest {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(method, "method");
  }

  /** The params, or an empty object when the request had none. Never null. */
  public JsonObject paramsOrEmpty() {
    return params == null ? new JsonObject() : params;
  }

  @Override
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("jsonrpc", "2.0").put("id", id.wireValue()).put("method", method);
    if (params != null) {
      json.put("params", params);
    }
    return json;
  }
}
