package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.SessionState;
import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.verticles.McpEventBus;
import io.mcpvertx.verticles.McpSessionVerticle;
import io.mcpvertx.verticles.SessionBatch;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.http.McpHttpStores;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * State shared by the HTTP verticles of one endpoint: the sessions, the event store, the limits. Thread-safe.
 *
 * <p>A session is created by the verticle that received its {@code initialize}: it deploys the session verticle
 * and a mailbox consumer for the session's unsolicited messages (stored on the standalone stream, and published
 * live to whichever verticle holds the session's GET stream).
 *
 * <p>With {@link McpHttpStores#shared shared stores}, each session's record goes to the session store whenever it
 * changes, and a request naming a session this endpoint does not hold restores it from there (see
 * {@link #restoreSession}). A session known here is served without asking the store anything but a throttled,
 * fire-and-forget extension of its lifetime ({@link StoredSessions#used}).
 */
final class HttpEndpoint {

  private static final Logger LOG = System.getLogger(HttpEndpoint.class.getName());
  private static final SecureRandom RANDOM = new SecureRandom();

  final Vertx vertx;
  final McpServer server;
  final McpHttpServerOptions options;
  final EventStore events;
  /** The shared session store; null when sessions live in this endpoint only. */
  private final StoredSessions stored;
  /** The readiness checks, by name: every store this endpoint and its server use. */
  final Map<String, Supplier<Future<Void>>> readiness;
  final JsonRpcCodec codec;
  final RequestGuard guard;
  private final Map<String, HttpSession> sessions = new ConcurrentHashMap<>();
  private final Map<String, MessageConsumer<Object>> mailboxes = new ConcurrentHashMap<>();
  private final AtomicInteger reserved = new AtomicInteger();
  /** Restorations under way, so that concurrent requests for one stored session restore it once. */
  private final Map<String, Future<HttpSession>> restoring = new ConcurrentHashMap<>();
  /** Session-store lookups under way; bounded like sessions. */
  private final AtomicInteger lookups = new AtomicInteger();
  private long sweeper = -1;
  /** Set once by {@link #startAuth()}, before any HTTP verticle is deployed; null when auth is off. */
  private volatile AuthGate auth;

  HttpEndpoint(Vertx vertx, McpServer server, McpHttpServerOptions options, McpHttpStores stores) {
    this.vertx = vertx;
    this.server = server;
    this.options = options;
    this.events = stores.events();
    this.stored = stores.sessions().map(store -> new StoredSessions(store, options.getSessionIdleTimeoutMs(),
        this::closeSession)).orElse(null);
    this.codec = server.codec();
    this.guard = new RequestGuard(options);
    Map<String, Supplier<Future<Void>>> checks = new LinkedHashMap<>();
    checks.put("eventStore", events::ping);
    stores.sessions().ifPresent(store -> checks.put("sessionStore", store::ping));
    checks.put("taskStore", () -> server.taskStore().ping());
    this.readiness = Collections.unmodifiableMap(checks);
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

  /** Whether other endpoints may serve this endpoint's sessions (shared stores). */
  boolean sharesSessions() {
    return stored != null;
  }

  /** A request used the session: it stays alive here, and its stored record too (throttled, not awaited). */
  void used(HttpSession session) {
    session.touch();
    if (stored != null) {
      stored.used(session);
    }
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
        System.currentTimeMillis());
    return start(session, new McpSessionVerticle(server, session.id, session.mailboxAddress(), principal))
        .onFailure(e -> closeSession(session, "session start failed"));
  }

  /**
   * Restores a session this endpoint does not hold from the shared session store, for a request of {@code caller}:
   * null when there is no session store, no such record (never created, deleted, expired), or the record belongs to
   * another principal (which is answered as an unknown session), or cannot be restored. Concurrent requests for one
   * session restore it once. Fails with {@link SessionLimitException} when the endpoint is full (lookups in flight
   * count against the limit as well as sessions), and with the store's failure when it did not answer.
   */
  Future<HttpSession> restoreSession(String id, Principal caller) {
    if (stored == null) {
      return Future.succeededFuture(null);
    }
    Promise<HttpSession> restored = Promise.promise();
    Future<HttpSession> underway = restoring.putIfAbsent(id, restored.future());
    if (underway != null) {
      return underway; // the caller checks ownership, as for any session held here
    }
    if (lookups.incrementAndGet() > options.getMaxSessions()) {
      lookups.decrementAndGet();
      restoring.remove(id, restored.future());
      return Future.failedFuture(new SessionLimitException());
    }
    stored.find(id)
        .compose(record -> record == null ? Future.succeededFuture(null) : restore(record, caller))
        .onComplete(ar -> {
          lookups.decrementAndGet();
          restoring.remove(id, restored.future());
          restored.handle(ar);
        });
    return restored.future();
  }

  private Future<HttpSession> restore(SessionRecord record, Principal caller) {
    String owner;
    ProtocolVersion version;
    try {
      owner = record.principal() == null ? null : Principal.fromJson(record.principal()).key();
      version = record.protocolVersion() == null ? null : ProtocolVersion.fromId(record.protocolVersion())
          .orElseThrow(() -> new IllegalArgumentException("unknown protocol version " + record.protocolVersion()));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, () -> "Session " + record.sessionId() + ": its stored record is unusable: " + e);
      return Future.succeededFuture(null);
    }
    if (!Objects.equals(owner, caller == null ? null : caller.key())) {
      LOG.log(Level.WARNING, () -> "Refused " + (caller == null ? "an anonymous caller" : caller.key())
          + " the stored session of another principal");
      return Future.succeededFuture(null);
    }
    HttpSession held = session(record.sessionId());
    if (held != null) {
      return Future.succeededFuture(held);
    }
    if (reserved.incrementAndGet() > options.getMaxSessions()) {
      reserved.decrementAndGet();
      return Future.failedFuture(new SessionLimitException());
    }
    HttpSession session = new HttpSession(record.sessionId(), owner, System.currentTimeMillis());
    session.version = version;
    session.initialized = !SessionState.AWAITING_INITIALIZED.name().equals(record.state());
    session.record = record;
    session.recordWritten = true;
    session.storeTouchedAt = 0; // the request that restores it extends its lifetime
    return start(session, McpSessionVerticle.restoring(server, record, session.mailboxAddress()))
        .recover(e -> {
          LOG.log(Level.WARNING, () -> "Session " + record.sessionId() + " could not be restored: " + e);
          closeSession(session, "restoring failed");
          return Future.succeededFuture(null);
        });
  }

  /** Registers the session's mailbox, then deploys its verticle (which stores its record when stores are shared). */
  private Future<HttpSession> start(HttpSession session, McpSessionVerticle verticle) {
    if (stored != null) {
      verticle.onPersistentChange(record -> stored.write(session, record));
    }
    MessageConsumer<Object> mailbox = vertx.eventBus().consumer(session.mailboxAddress(),
        m -> onUnsolicited(session, m.body()));
    mailboxes.put(session.id, mailbox);
    sessions.put(session.id, session);
    return mailbox.completion()
        .compose(v -> vertx.deployVerticle(verticle))
        .map(deploymentId -> {
          session.deploymentId = deploymentId;
          if (session.closed.get()) {
            vertx.undeploy(deploymentId);
          }
          return session;
        });
  }

  /**
   * Ends a session here: its verticle, mailbox and open streams; its stored events too unless the stores are
   * shared (another instance may serve the session: the stores' expiry ends it there). Idempotent.
   */
  void closeSession(HttpSession session, String reason) {
    end(session, reason, false);
  }

  /** Ends a session the client deleted, everywhere: here, and its events and record in the stores. */
  Future<Void> deleteSession(HttpSession session) {
    end(session, "deleted by the client", true);
    return stored == null ? Future.succeededFuture() : stored.remove(session.id);
  }

  private void end(HttpSession session, String reason, boolean deleted) {
    if (!session.closed.compareAndSet(false, true)) {
      if (deleted) {
        events.removeSession(session.id);
      }
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
    if (deleted || stored == null) {
      events.removeSession(session.id);
    }
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
        // Shared events are left to the store's expiry: another instance may be serving the session.
        if (stored == null) {
          events.removeSession(session.id);
        }
        return;
      }
      // Published, not sent: a GET the client dropped may still be registered for a moment after a resuming GET
      // registered, and a point-to-point send could pick the dead one, losing the event for the live reader.
      vertx.eventBus().publish(session.liveAddress(streamId), new JsonObject().put("id", id)
          .put("data", data.toString()));
    });
  }

  /** Tells a client resuming {@code streamId} that nothing more will come. */
  void completeStream(HttpSession session, String streamId) {
    events.complete(session.id, streamId).onComplete(ar ->
        vertx.eventBus().publish(session.liveAddress(streamId), new JsonObject().put("complete", true)));
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
