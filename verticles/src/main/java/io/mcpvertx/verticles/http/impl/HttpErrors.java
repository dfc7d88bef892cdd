package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.vertx.core.http.HttpServerResponse;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * The one place where a transport-level rejection becomes an HTTP status with a JSON-RPC error body (id null,
 * unless the request's id is known) and a log line. Never a stack trace to the client.
 */
final class HttpErrors {

  private static final Logger LOG = System.getLogger(HttpErrors.class.getName());

  /** JSON-RPC code for rejections that are about the HTTP exchange rather than a method. */
  static final int TRANSPORT_ERROR = -32000;

  private HttpErrors() {
  }

  static void reject(HttpServerResponse response, int status, int code, String message) {
    reject(response, status, null, new JsonRpcError(code, message));
  }

  static void reject(HttpServerResponse response, int status, String message) {
    reject(response, status, TRANSPORT_ERROR, message);
  }

  static void reject(HttpServerResponse response, int status, JsonRpcId id, JsonRpcError error) {
    LOG.log(status >= 500 ? Level.WARNING : Level.DEBUG, () -> "HTTP " + status + ": " + error.message());
    if (response.ended() || response.closed()) {
      return;
    }
    if (response.headWritten()) {
      response.end();
      return;
    }
    response.setStatusCode(status)
        .putHeader("Content-Type", "application/json")
        .end(new JsonRpcErrorResponse(id, error).toJson().toBuffer());
  }
}
