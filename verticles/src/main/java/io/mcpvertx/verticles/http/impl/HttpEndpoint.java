package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.Principal;
import io.mcpvertx.spi.EventStore;
import io.mcpvertx.verticles.McpEventBus;
import io.mcpvertx.verticles.McpSessionVerticle;
import io.mcpvertx.verticles.SessionBatch;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * State shared by the HTTP verticles of one endpoint: the sessions, the event store, the limits. Thread-safe.
 *
 * <p>A session is created by the verticle that received its {@code initialize}: it deploys the session verticle
 * and a mailbox consumer for the session's unsolicited messages (stored on the standalone stream, and published
 * live to whichever verticle holds the session's GET stream).
 */
final class HttpEndpoint {

  private static final Logger LOG = System.getLogger(HttpEndpoint.class.getName());
  private static final SecureRandom RANDOM = new SecureRandom();

  final Vertx vertx;
  final McpServer server;
  final McpHttpServerOptions options;
  final EventStore events;
  final JsonRpcCodec codec;
  final RequestGuard guard;
  private final Map<String, HttpSession> sessions = new ConcurrentHashMap<>();
  private final Map<String, MessageConsumer<Object>> mailboxes = new ConcurrentHashMap<>();
  private final AtomicInteger reserved = new AtomicInteger();
  private long sweeper = -1;
  /** Set once by {@link #startAuth()}, before any HTTP verticle is deployed; null when auth is off. */
  private volatile AuthGate auth;

  HttpEndpoint(Vertx vertx, McpServer server, McpHttpServerOptions options, EventStore events) {
    this.vertx = vertx;
    this.server = server;
    this.options = options;
    this.events = events;
    this.codec = server.codec();
    this.guard = new RequestGuard(options);
  }

  /**
   * Readies authorization when it is on: discovery and keys, before anything is served. Fails, and nothing is
   * served, when the authorization server cannot be reached or configured.
   */
  Future<Void> startAuth() {
    if (!options.getAuth().isEnabled() || auth != null) {
      return Future.succeededFuture();
    }
    return AuthGate.start(vertx, options.getAuth()).map(gate -> {
      auth = gate;
      return null;
    });
  }

  /** The authorization gate, or null when auth is off. */
  AuthGate auth() {
    return auth;
  }

  void stopAuth() {
    AuthGate gate = auth;
    if (gate != null) {
      gate.close();
    }
  }

  /** Starts expiring idle sessions; called once, from the first verticle's context. */
  void startSweeper() {
    long period = Math.max(100, Math.min(30_000,
        Math.min(options.getSessionIdleTimeoutMs(), options.getInitializeTimeoutMs()) / 4));
    sweeper = vertx.setPeriodic(period, t -> sweep());
  }

  void stopSweeper() {
    if (sweeper >= 0) {
      vertx.cancelTimer(sweeper);
      sweeper = -1;
    }
  }

  HttpSession session(String id) {
    HttpSession session = id == null ? null : sessions.get(id);
    return session == null || session.closed.get() ? null : session;
  }

  int sessionCount() {
    return sessions.size();
  }

  /**
   * Reserves a slot and deploys a new session, or fails with {@link SessionLimitException} when the endpoint is
   * full. The reservation is taken before anything is allocated, so a flood of initializes costs nothing past the
   * limit.
   */
  Future<HttpSession> createSession(Principal principal) {
    if (reserved.incrementAndGet() > options.getMaxSessions()) {
      reserved.decrementAndGet();
      return Future.failedFuture(new SessionLimitException());
    }
    HttpSession session = new HttpSession(randomId(24), principal == null ? null : principal.key(),
        "g" + randomId(6), System.currentTimeMillis());
    MessageConsumer<Object> mailbox = vertx.eventBus().consumer(session.mailboxAddress(),
        m -> onUnsolicited(session, m.body()));
    mailboxes.put(session.id, mailbox);
    sessions.put(session.id, session);
    return mailbox.completion()
        .compose(v -> vertx.deployVerticle(new McpSessionVerticle(server, session.id, session.mailboxAddress(),
            principal)))
        .map(deploymentId -> {
          session.deploymentId = deploymentId;
          if (session.closed.get()) {
            vertx.undeploy(deploymentId);
          }
          return session;
        })
        .onFailure(e -> closeSession(session, "session start failed"));
  }

  /** Ends a session: its verticle, mailbox, stored events and open streams. Idempotent. */
  void closeSession(HttpSession session, String reason) {
    if (!session.closed.compareAndSet(false, true)) {
      return;
    }
    LOG.log(Level.DEBUG, () -> "Closing session " + session.id + ": " + reason);
    sessions.remove(session.id);
    reserved.decrementAndGet();
    MessageConsumer<Object> mailbox = mailboxes.remove(session.id);
    if (mailbox != null) {
      mailbox.unregister();
    }
    if (session.deploymentId != null) {
      vertx.undeploy(session.deploymentId).onFailure(e ->
          LOG.log(Level.DEBUG, () -> "Session verticle " + session.id + " was already gone"));
    }
    events.removeSession(session.id);
    for (Runnable closer : session.closers.values()) {
      closer.run();
    }
    session.closers.clear();
  }

  Future<Void> closeAll() {
    for (HttpSession session : sessions.values()) {
      closeSession(session, "server closing");
    }
    return Future.succeededFuture();
  }

  /** Stores a message on the session's standalone stream and hands it to a live GET stream, if one is open. */
  private void onUnsolicited(HttpSession session, Object body) {
    Buffer data;
    if (body instanceof JsonRpcMessage message) {
      data = codec.encode(message);
    } else if (body instanceof SessionBatch batch) {
      data = codec.encodeBatch(batch.messages());
    } else {
      return;
    }
    publish(session, session.standaloneStream, data);
  }

  /** Appends an event to a stream and publishes it to a client resuming that stream, if any. */
  Future<String> publish(HttpSession session, String streamId, Buffer data) {
    if (session.closed.get()) {
      return Future.failedFuture(new IllegalStateException("session closed"));
    }
    return events.append(session.id, streamId, data).onSuccess(id -> {
      if (session.closed.get()) {
        // Closed while appending: closeSession may have removed the session's events before this append,
        // which stored them again. closed is set before that removal, so removing again here leaves nothing.
        events.removeSession(session.id);
        return;
      }
      vertx.eventBus().send(session.liveAddress(streamId), new JsonObject().put("id", id)
          .put("data", data.toString()));
    });
  }

  /** Tells a client resuming {@code streamId} that nothing more will come. */
  void completeStream(HttpSession session, String streamId) {
    events.complete(session.id, streamId).onComplete(ar ->
        vertx.eventBus().send(session.liveAddress(streamId), new JsonObject().put("complete", true)));
  }

  private void sweep() {
    long now = System.currentTimeMillis();
    for (HttpSession session : sessions.values()) {
      if (!session.initialized && now - session.createdAt > options.getInitializeTimeoutMs()) {
        closeSession(session, "not initialized in time");
      } else if (now - session.lastAccess > options.getSessionIdleTimeoutMs()) {
        closeSession(session, "idle");
      }
    }
  }

  /** Cryptographically random, URL-safe, visible ASCII. */
  static String randomId(int bytes) {
    byte[] random = new byte[bytes];
    RANDOM.nextBytes(random);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
  }

  /** The endpoint holds as many sessions as it may. */
  static final class SessionLimitException extends RuntimeException {
    SessionLimitException() {
      super("session limit reached", null, false, false);
    }
  }

  static String sessionAddress(HttpSession session) {
    return McpEventBus.sessionAddress(session.id);
  }
}
