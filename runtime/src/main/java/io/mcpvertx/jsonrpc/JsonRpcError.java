package io.mcpvertx.jsonrpc;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Objects;

/**
 * The error member of an error response: a code, a message that names the problem, and optional data.
 *
 * @param data any JSON value ({@link JsonObject}, {@link JsonArray}, string, number,
 *     boolean) or {@code null}
 */
public record JsonRpcError(int code, String message, Object data) {

  public JsonRpcError {
    Objects.requireNonNull(message, "message");
  }

  public JsonRpcError(int code, String message) {
    this(code, message, null);
  }

  public static JsonRpcError fromJson(JsonObject json) {
    return new JsonRpcError(json.getInteger("code", JsonRpcErrorCodes.INTERNAL_ERROR),
        json.getString("message", ""), json.getValue("data"));
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("code", code).put("message", message);
    if (data != null) {
      json.put("data", data);
    }
    return json;
  }
}
