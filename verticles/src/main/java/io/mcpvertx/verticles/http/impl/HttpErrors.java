package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The one place where an error meets HTTP: which status each refusal of the transport travels with (a
 * {@link Refusal}), which status a JSON-RPC error answered by a 2026-07-28 request travels with
 * ({@link #statusOf}), and how a refusal is written: a JSON-RPC error body (id null, unless the request's id is
 * known) and a log line, never a stack trace.
 */
final class HttpErrors {

  private static final Logger LOG = LoggerFactory.getLogger(HttpErrors.class);

  /** JSON-RPC code for rejections that are about the HTTP exchange rather than a method. */
  static final int TRANSPORT_ERROR = -32000;

  /** Why the transport refuses a request, and the status that travels with it. */
  enum Refusal {
    /** Malformed: a header, a body, or a message the request's revision does not allow. */
    BAD_REQUEST(400),
    /** No valid bearer token. */
    UNAUTHORIZED(401),
    /** A Host or Origin not allowed, or scopes that do not cover the request. */
    FORBIDDEN(403),
    /** The session named is unknown, ended, expired, or another principal's. */
    SESSION_NOT_FOUND(404),
    /** A method this path does not serve (or the request's revision does not use). */
    METHOD_NOT_ALLOWED(405),
    /** A request whose body did not arrive within its deadline. */
    REQUEST_TIMEOUT(408),
    /** The Accept header does not admit what the answer must be. */
    NOT_ACCEPTABLE(406),
    /** A stream another GET is delivering already. */
    CONFLICT(409),
    /** A body over the limit. */
    PAYLOAD_TOO_LARGE(413),
    /** A body that is not JSON. */
    UNSUPPORTED_MEDIA_TYPE(415),
    /** Something failed that should not have. */
    INTERNAL(500),
    /** A transfer coding the server does not understand. */
    NOT_IMPLEMENTED(501),
    /** A store or the authorization server did not answer, or the endpoint is full: retry later. */
    UNAVAILABLE(503);

    final int status;

    Refusal(int status) {
      this.status = status;
    }
  }

  private HttpErrors() {
  }

  /**
   * The status of a JSON-RPC error answering a 2026-07-28 request: 404 for a method this revision does not have,
   * 400 for a request the server could not take as it came, 200 for an error of the method itself.
   */
  static int statusOf(JsonRpcError error) {
    return switch (error.code()) {
      case JsonRpcErrorCodes.METHOD_NOT_FOUND -> 404;
      case JsonRpcErrorCodes.HEADER_MISMATCH, JsonRpcErrorCodes.CLIENT_CAPABILITY_MISSING,
          JsonRpcErrorCodes.UNSUPPORTED_PROTOCOL_VERSION, JsonRpcErrorCodes.PARSE_ERROR,
          JsonRpcErrorCodes.INVALID_REQUEST -> 400;
      default -> 200;
    };
  }

  static void reject(HttpServerResponse response, Refusal refusal, int code, String message) {
    reject(response, refusal, null, new JsonRpcError(code, message));
  }

  static void reject(HttpServerResponse response, Refusal refusal, String message) {
    reject(response, refusal, TRANSPORT_ERROR, message);
  }

  static void reject(HttpServerResponse response, Refusal refusal, JsonRpcId id, JsonRpcError error) {
    int status = refusal.status;
    // A refusal for the client's doing is DEBUG (a client can cause any number); one the server owes is WARNING.
    Level level = refusal == Refusal.INTERNAL || refusal == Refusal.UNAVAILABLE ? Level.WARN : Level.DEBUG;
    LOG.atLevel(level).log(() -> "HTTP " + status + ": " + error.message());
    if (response.ended() || response.closed()) {
      return;
    }
    if (response.headWritten()) {
      response.end();
      return;
    }
    response.setStatusCode(status)
        .putHeader(HttpHeaders.CONTENT_TYPE, McpHeaders.APPLICATION_JSON)
        .end(new JsonRpcErrorResponse(id, error).toJson().toBuffer());
  }
}
