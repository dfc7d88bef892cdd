package io.mcpvertx.jsonrpc;

import io.vertx.core.json.JsonObject;
import java.util.Objects;

/** A notification: a method without an id. It is never answered. */
public record JsonRpcNotification(String method, JsonObject params) implements JsonRpcMessage {

  public JsonRpcNotification {
    Objects.requireNonNull(method, "method");
  }

  public JsonObject paramsOrEmpty() {
    return params == null ? new JsonObject() : params;
  }

  @Override
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("jsonrpc", "2.0").put("method", method);
    if (params != null) {
      json.put("params", params);
    }
    return json;
  }
}
