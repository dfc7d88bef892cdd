package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.Principal;
import io.mcpvertx.verticles.http.impl.HttpErrors.Refusal;
import io.mcpvertx.verticles.http.impl.session.HttpSession;
import io.mcpvertx.verticles.http.impl.session.SessionLimitException;
import io.mcpvertx.verticles.http.impl.session.SessionTable;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the session a request of the 2025 generation names in {@code Mcp-Session-Id}, and answers for it when
 * there is none the caller may use: 400 without the header, 404 for an unknown, ended, expired or another
 * principal's session, 503 when the shared session store did not answer or the endpoint is full.
 */
final class SessionLookup {

  private static final Logger LOG = LoggerFactory.getLogger(SessionLookup.class);
  /** Session ids we issue are 32 characters; a longer one is not worth a session-store lookup. */
  private static final int MAX_SESSION_ID_LENGTH = 128;

  private SessionLookup() {
  }

  /**
   * Hands the session a request names to {@code then}, or answers the request itself. A session this endpoint
   * does not hold is looked up in the shared session store, if any, and restored here (or routed to the instance
   * running it); one it holds costs no store round trip.
   */
  static void withSession(SessionTable sessions, RoutingContext rc, Handler<HttpSession> then) {
    withSession(sessions, rc.request(), AuthGate.principal(rc), then);
  }

  /** As {@link #withSession(SessionTable, RoutingContext, Handler)}, for a caller already known ({@code null}: none). */
  static void withSession(SessionTable sessions, HttpServerRequest request, Principal caller,
      Handler<HttpSession> then) {
    HttpServerResponse response = request.response();
    String id = request.getHeader(McpHeaders.SESSION_ID);
    if (id == null) {
      HttpErrors.reject(response, Refusal.BAD_REQUEST,
          "Bad Request: the " + McpHeaders.SESSION_ID + " header is required");
      return;
    }
    HttpSession session = sessions.session(id);
    if (session != null) {
      admit(sessions, request, caller, session, then);
      return;
    }
    if (!sessions.shared() || id.length() > MAX_SESSION_ID_LENGTH) {
      HttpErrors.reject(response, Refusal.SESSION_NOT_FOUND, "Session not found");
      return;
    }
    sessions.restore(id, caller).onComplete(ar -> {
      if (ar.failed()) {
        response.putHeader("Retry-After", "5");
        if (ar.cause() instanceof SessionLimitException) {
          HttpErrors.reject(response, Refusal.UNAVAILABLE, JsonRpcErrorCodes.SERVER_OVERLOADED,
              "Service Unavailable: the server holds as many sessions as it may; retry later");
        } else {
          LOG.atWarn().log(() -> "The session store did not answer: " + ar.cause());
          HttpErrors.reject(response, Refusal.UNAVAILABLE,
              "Service Unavailable: the session store did not answer");
        }
      } else if (ar.result() == null) {
        HttpErrors.reject(response, Refusal.SESSION_NOT_FOUND, "Session not found");
      } else {
        admit(sessions, request, caller, ar.result(), then);
      }
    });
  }

  private static void admit(SessionTable sessions, HttpServerRequest request, Principal principal,
      HttpSession session, Handler<HttpSession> then) {
    HttpServerResponse response = request.response();
    if (!session.ownedBy(principal)) {
      // Answered as an unknown session: whether another caller's session exists is none of this caller's business.
      LOG.atWarn().log(() -> "Refused " + (principal == null ? "an anonymous caller" : principal.key())
          + " the session of another principal");
      HttpErrors.reject(response, Refusal.SESSION_NOT_FOUND, "Session not found");
      return;
    }
    String version = request.getHeader(McpHeaders.PROTOCOL_VERSION);
    // A session speaks a session revision; 2026-07-28 has no sessions. Another session revision than the one
    // negotiated is served at the negotiated one: conformance clients send 2025-03-26 on later sessions.
    if (version != null && ProtocolVersion.fromId(version).filter(v -> !v.supports(ProtocolFeature.STATELESS))
        .isEmpty()) {
      ProtocolVersion negotiated = session.version();
      HttpErrors.reject(response, Refusal.BAD_REQUEST, "Bad Request: unsupported "
          + McpHeaders.PROTOCOL_VERSION + ": " + version + (negotiated == null ? ""
              : " (this session negotiated " + negotiated.id() + ")"));
      return;
    }
    sessions.used(session);
    then.handle(session);
  }
}
