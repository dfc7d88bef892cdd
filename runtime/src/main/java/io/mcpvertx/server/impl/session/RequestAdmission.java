package io.mcpvertx.server.impl.session;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.SessionState;
import io.mcpvertx.server.impl.features.ProgressTracker;
import io.vertx.core.json.JsonObject;

/**
 * Whether a session takes a client's request, in the order the refusals must come: an id still in use first
 * (whatever the method, since any answer to it would be taken for the answer to the request in progress), then,
 * for requests other than {@code initialize} and {@code ping}, an uninitialized session, an unknown method, the
 * session's concurrent-request limit and a malformed {@code _meta}. Each refusal is the JSON-RPC error the client
 * gets; the session answers it and reports it.
 */
final class RequestAdmission {

  private RequestAdmission() {
  }

  /** The refusal of a request whose id a request in progress still holds, or null. */
  static JsonRpcError idInUse(JsonRpcRequest request, InFlightRequests inFlight) {
    if (!inFlight.contains(request.id())) {
      return null;
    }
    return new JsonRpcError(JsonRpcErrorCodes.INVALID_REQUEST,
        "Invalid Request: id " + request.id() + " is already in use by a request in progress");
  }

  /**
   * The refusal of a request to serve ({@code method} is neither {@code initialize} nor {@code ping}), or null
   * when the session takes it.
   */
  static JsonRpcError refusal(JsonRpcRequest request, McpMethod method, SessionState state, int inFlight,
      int limit) {
    if (state == SessionState.AWAITING_INITIALIZE) {
      return new JsonRpcError(JsonRpcErrorCodes.INVALID_REQUEST,
          "Invalid Request: the session is not initialized; send initialize first");
    }
    if (method == null || !method.isRequest()) {
      return new JsonRpcError(JsonRpcErrorCodes.METHOD_NOT_FOUND, "Method not found: " + request.method());
    }
    if (inFlight >= limit) {
      return new JsonRpcError(JsonRpcErrorCodes.SERVER_OVERLOADED,
          "Too many concurrent requests in this session (limit " + limit + ")");
    }
    Object meta = request.paramsOrEmpty().getValue("_meta");
    String invalidMeta = meta != null && !(meta instanceof JsonObject) ? "\"_meta\" must be an object"
        : ProgressTracker.invalidToken((JsonObject) meta);
    if (invalidMeta != null) {
      return new JsonRpcError(JsonRpcErrorCodes.INVALID_PARAMS, "Invalid params: " + invalidMeta);
    }
    return null;
  }
}
