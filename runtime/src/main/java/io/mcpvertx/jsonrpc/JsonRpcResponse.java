package io.mcpvertx.jsonrpc;

import io.vertx.core.json.JsonObject;
import java.util.Objects;

/** A successful response to the request with the same id. */
public record JsonRpcResponse(JsonRpcId id, JsonObject result) implements JsonRpcMessage {

  public JsonRpcResponse {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(result, "result");
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("jsonrpc", "2.0").put("id", id.wireValue()).put("result", result);
  }
}
