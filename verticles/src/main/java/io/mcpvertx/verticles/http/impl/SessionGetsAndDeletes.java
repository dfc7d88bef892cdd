package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.spi.UnknownEventException;
import io.mcpvertx.verticles.http.impl.HttpErrors.Refusal;
import io.mcpvertx.verticles.http.impl.session.HttpSession;
import io.vertx.core.Context;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;

/**
 * The GETs and DELETEs of the 2025 generation on one HTTP verticle: a GET opens the session's standalone stream or
 * resumes one of its streams after {@code Last-Event-ID} (a {@link GetStream} of this verticle, one per stream); a
 * DELETE ends the session. Confined to the verticle's context.
 */
final class SessionGetsAndDeletes {

  private static final Logger LOG = LoggerFactory.getLogger(SessionGetsAndDeletes.class);
  private static final String EVENT_STREAM = "text/event-stream";

  private final HttpEndpoint endpoint;
  private final Context context;
  private final Set<GetStream> gets = new HashSet<>();

  SessionGetsAndDeletes(HttpEndpoint endpoint, Context context) {
    this.endpoint = endpoint;
    this.context = context;
  }

  void get(RoutingContext rc) {
    if (!RequestGuard.accepts(rc.request().getHeader(HttpHeaders.ACCEPT), EVENT_STREAM)) {
      HttpErrors.reject(rc.response(), Refusal.NOT_ACCEPTABLE,
          "Not Acceptable: a GET stream needs Accept: text/event-stream");
      return;
    }
    SessionLookup.withSession(endpoint.sessions, rc, session -> get(rc, session));
  }

  void delete(RoutingContext rc) {
    SessionLookup.withSession(endpoint.sessions, rc, session -> endpoint.sessions.delete(session).onComplete(ar -> {
      if (ar.succeeded()) {
        rc.response().setStatusCode(200).end();
      } else {
        // Ended here, but another instance could still restore it: the client should delete it again.
        LOG.atWarn().log(() -> "Session " + session.id() + ": removing its stored record failed: "
            + ar.cause());
        rc.response().putHeader("Retry-After", "5");
        HttpErrors.reject(rc.response(), Refusal.UNAVAILABLE, "Service Unavailable: the session store did not answer");
      }
    }));
  }

  /** Ends every stream (the verticle stops or drains: their clients resume elsewhere). */
  void endAll() {
    new ArrayList<>(gets).forEach(GetStream::end);
  }

  /** Ends every stream telling its client to come back after {@code retryMs} (the server is stopping). */
  void handOverAll(long retryMs) {
    new ArrayList<>(gets).forEach(stream -> stream.handOver(retryMs));
  }

  void heartbeats() {
    // A copy: a heartbeat that finds a dead connection ends its stream, which removes it from the set.
    new ArrayList<>(gets).forEach(GetStream::heartbeat);
  }

  private void get(RoutingContext rc, HttpSession session) {
    HttpServerResponse response = rc.response();
    String lastEventId = rc.request().getHeader(McpHeaders.LAST_EVENT_ID);
    if (lastEventId == null) {
      if (!session.follow(HttpSession.STANDALONE_STREAM)) {
        HttpErrors.reject(response, Refusal.CONFLICT, "Conflict: this session already has an open GET stream");
        return;
      }
      track(session, GetStream.standalone(endpoint, session, response, stream -> untrack(session, stream)));
      return;
    }
    String streamId = endpoint.events.streamOf(lastEventId);
    if (streamId == null) {
      HttpErrors.reject(response, Refusal.BAD_REQUEST, "Bad Request: unknown Last-Event-ID");
      return;
    }
    if (!session.follow(streamId)) {
      HttpErrors.reject(response, Refusal.CONFLICT, "Conflict: another GET is delivering this stream");
      return;
    }
    GetStream.resume(endpoint, session, streamId, lastEventId, response, stream -> untrack(session, stream))
        .onSuccess(stream -> track(session, stream))
        .onFailure(failure -> {
          session.unfollow(streamId);
          if (failure instanceof UnknownEventException) {
            HttpErrors.reject(response, Refusal.BAD_REQUEST, "Bad Request: unknown or expired Last-Event-ID");
          } else {
            HttpErrors.reject(response, Refusal.UNAVAILABLE, "Service Unavailable: the event store did not answer");
          }
        });
  }

  private void track(HttpSession session, GetStream stream) {
    gets.add(stream);
    session.onClose(stream, () -> context.runOnContext(v -> stream.end()));
    if (session.isClosed()) {
      stream.end();
    }
  }

  private void untrack(HttpSession session, GetStream stream) {
    gets.remove(stream);
    session.removeOnClose(stream);
  }
}
