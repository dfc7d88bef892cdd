package io.mcpvertx.jsonrpc;

import io.vertx.core.json.JsonObject;
import java.util.Objects;

/**
 * An error response. The id is {@code null} only when the request's id could not be read (a parse error or an
 * invalid request), which JSON-RPC writes as {@code "id": null}.
 */
public record JsonRpcErrorResponse(JsonRpcId id, JsonRpcError error) implements JsonRpcMessage {

  public JsonRpcErrorResponse {
    Objects.requireNonNull(error, "error");
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("jsonrpc", "2.0")
        .put("id", id == null ? null : id.wireValue())
        .put("error", error.toJson());
  }
}
