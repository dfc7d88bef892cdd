package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.SessionState;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.spi.EventStore;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.verticles.McpEventBus;
import io.mcpvertx.verticles.McpSessionVerticle;
import io.mcpvertx.verticles.SessionBatch;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
 * <p>With {@link McpStores#sessions shared sessions}, each session's record goes to the session store whenever it
 * changes, and a request naming a session this endpoint does not hold restores it from there (see
 * {@link #restoreSession}). A session known here is served without asking the store anything but a throttled,
 * fire-and-forget extension of its lifetime ({@link StoredSessions#used}).
 */
final class HttpEndpoint {

  private static final Logger LOG = System.getLogger(HttpEndpoint.class.getName());
  private static final SecureRandom RANDOM = new SecureRandom();
  /** How long a delete through a route waits for the owner to end the session. */
  private static final long DELETE_TIMEOUT_MS = 5_000;

  final Vertx vertx;
  final McpServer server;
  final McpHttpServerOptions options;
  final EventStore events;
  /** The shared session store; null when sessions live in this endpoint only. */
  private final StoredSessions stored;
  /**
   * The readiness checks, by name: every store this endpoint and its server use, and what the embedder adds before
   * listening ({@link io.mcpvertx.verticles.http.McpHttpServer#addReadinessCheck}); not changed afterwards.
   */
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
  /**
   * Clustered (shared stores and a server that is a deployment {@link McpInstance}): this instance's lease, which
   * makes it the one owner of the sessions it runs. Null otherwise.
   */
  private final McpInstance instance;
  /** Routes to sessions whose verticle runs on another instance; bounded like sessions. */
  private final AtomicInteger remotes = new AtomicInteger();
  private MessageConsumer<JsonObject> goneConsumer;
  /** Stream ids that name their producer, and answers for streams whose producer died. */
  final StreamProducers producers;
  private long ownerWatch = -1;
  /** Set once by {@link #startAuth()}, before any HTTP verticle is deployed; null when auth is off. */
  private volatile AuthGate auth;

  HttpEndpoint(Vertx vertx, McpServer server, McpHttpServerOptions options, McpStores stores) {
    this.vertx = vertx;
    this.server = server;
    this.options = options;
    this.events = stores.events();
    this.stored = stores.sessions().map(store -> new StoredSessions(store, options.getSessionIdleTimeoutMs(),
        this::closeSession)).orElse(null);
    this.instance = stored == null ? null : server.instance().orElse(null);
    if (instance != null) {
      stored.onExtended(this::reclaim);
      instance.onLost(this::leaseLost);
    }
    this.codec = server.codec();
    this.producers = new StreamProducers(this, instance);
    this.guard = new RequestGuard(options);
    Map<String, Supplier<Future<Void>>> checks = new LinkedHashMap<>();
    checks.put("eventStore", events::ping);
    stores.sessions().ifPresent(store -> checks.put("sessionStore", store::ping));
    checks.put("taskStore", stores.tasks()::ping);
    this.readiness = checks;
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
    if (instance != null) {
      goneConsumer = vertx.eventBus().consumer(SESSION_GONE, m -> onSessionGone(m.body()));
      ownerWatch = vertx.setPeriodic(instance.options().getRenewIntervalMs(), t -> watchOwners());
    }
  }

  void stopSweeper() {
    if (sweeper >= 0) {
      vertx.cancelTimer(sweeper);
      sweeper = -1;
    }
    if (ownerWatch >= 0) {
      vertx.cancelTimer(ownerWatch);
      ownerWatch = -1;
    }
    if (goneConsumer != null) {
      goneConsumer.unregister();
      goneConsumer = null;
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
    if (session.remote()) {
      // The owner hears of requests it serves; a client that only follows a stream here would look idle there.
      long now = System.currentTimeMillis();
      if (now - session.storeTouchedAt >= stored.touchIntervalMs()) {
        session.storeTouchedAt = now;
        vertx.eventBus().send(McpEventBus.sessionAddress(session.id), null,
            new DeliveryOptions().addHeader(McpEventBus.TOUCH, "1"));
      }
    } else if (stored != null) {
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
    Future<?> claimed = instance == null ? Future.succeededFuture()
        : instance.leases().claimSession(session.id, instance.id(), stored.ttlMs()).compose(owner ->
            owner.equals(instance.id()) ? Future.succeededFuture()
                : Future.failedFuture(new IllegalStateException("a new session id is claimed already")));
    return claimed
        .recover(e -> {
          reserved.decrementAndGet();
          return Future.failedFuture(new StoreUnavailableException(e));
        })
        .compose(v -> start(session, new McpSessionVerticle(server, session.id, session.mailboxAddress(), principal))
            .onFailure(e -> closeSession(session, "session start failed")));
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
    Future<HttpSession> found = instance == null
        ? stored.find(id).compose(record -> record == null ? Future.succeededFuture(null) : restore(record, caller))
        : Future.all(stored.find(id), instance.leases().sessionOwner(id)).compose(both -> {
          SessionRecord record = both.resultAt(0);
          return record == null ? Future.succeededFuture(null) : route(record, both.resultAt(1), caller);
        });
    found
        .onComplete(ar -> {
          lookups.decrementAndGet();
          restoring.remove(id, restored.future());
          restored.handle(ar);
        });
    return restored.future();
  }

  /** What a stored record says about who may use the session and how; null when the caller may not. */
  private record Admitted(String owner, ProtocolVersion version) {
  }

  private static Admitted admit(SessionRecord record, Principal caller) {
    String owner;
    ProtocolVersion version;
    try {
      owner = record.principal() == null ? null : Principal.fromJson(record.principal()).key();
      version = record.protocolVersion() == null ? null : ProtocolVersion.fromId(record.protocolVersion())
          .orElseThrow(() -> new IllegalArgumentException("unknown protocol version " + record.protocolVersion()));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, () -> "Session " + record.sessionId() + ": its stored record is unusable: " + e);
      return null;
    }
    if (!Objects.equals(owner, caller == null ? null : caller.key())) {
      LOG.log(Level.WARNING, () -> "Refused " + (caller == null ? "an anonymous caller" : caller.key())
          + " the stored session of another principal");
      return null;
    }
    return new Admitted(owner, version);
  }

  /**
   * Clustered: serves a stored session from wherever it runs. A session another live instance owns gets a route
   * here; one nobody owns (new here, or its owner stopped and its lease is gone) is claimed, and the store decides
   * which of several claimers wins, so exactly one instance runs it.
   */
  private Future<HttpSession> route(SessionRecord record, String owner, Principal caller) {
    Admitted admitted = admit(record, caller);
    if (admitted == null) {
      return Future.succeededFuture(null);
    }
    HttpSession held = session(record.sessionId());
    if (held != null) {
      return Future.succeededFuture(held);
    }
    if (owner != null && !owner.equals(instance.id())) {
      return Future.succeededFuture(remote(record, admitted, owner));
    }
    return instance.leases().claimSession(record.sessionId(), instance.id(), stored.ttlMs()).compose(winner ->
        winner.equals(instance.id()) ? restore(record, caller)
            : Future.succeededFuture(remote(record, admitted, winner)));
  }

  /** A route to a session another instance runs; thrown out when the owner stops or lets the session go. */
  private HttpSession remote(SessionRecord record, Admitted admitted, String ownerInstance) {
    HttpSession held = session(record.sessionId());
    if (held != null) {
      return held;
    }
    if (remotes.incrementAndGet() > options.getMaxSessions()) {
      remotes.decrementAndGet();
      throw new SessionLimitException();
    }
    HttpSession session = new HttpSession(record.sessionId(), admitted.owner(), System.currentTimeMillis(),
        ownerInstance);
    session.version = admitted.version();
    session.initialized = !SessionState.AWAITING_INITIALIZED.name().equals(record.state());
    session.record = record;
    session.recordWritten = true;
    HttpSession raced = sessions.putIfAbsent(session.id, session);
    if (raced != null) {
      remotes.decrementAndGet();
      return raced;
    }
    LOG.log(Level.DEBUG, () -> "Session " + session.id + " runs on instance " + ownerInstance + "; routing to it");
    return session;
  }

  private Future<HttpSession> restore(SessionRecord record, Principal caller) {
    Admitted admitted = admit(record, caller);
    if (admitted == null) {
      return Future.succeededFuture(null);
    }
    String owner = admitted.owner();
    ProtocolVersion version = admitted.version();
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
      verticle.onActivity(() -> used(session));
      verticle.answerOnStop();
      verticle.onCloseRequested(() -> end(session, "deleted through another instance", false));
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

  /**
   * Ends a session the client deleted, everywhere: here, and its events and record in the stores. Through a route,
   * the record goes first and then the owner is asked to end the session, and only its answer completes the
   * delete: so once the client has its answer, no instance serves the session any more.
   */
  Future<Void> deleteSession(HttpSession session) {
    if (!session.remote()) {
      end(session, "deleted by the client", true);
      return stored == null ? Future.succeededFuture() : stored.remove(session.id);
    }
    return stored.remove(session.id)
        .compose(v -> vertx.eventBus().request(McpEventBus.sessionAddress(session.id), null,
                new DeliveryOptions().addHeader(McpEventBus.CLOSE, "1").setSendTimeout(DELETE_TIMEOUT_MS))
            .<Void>mapEmpty()
            // No handler: the owner let it go already. A timeout: the owner is dying; its lease ends it.
            .recover(e -> Future.succeededFuture()))
        .onComplete(ar -> end(session, "deleted by the client", true));
  }

  private void end(HttpSession session, String reason, boolean deleted) {
    if (!session.closed.compareAndSet(false, true)) {
      if (deleted) {
        events.removeSession(session.id);
      }
      return;
    }
    LOG.log(Level.DEBUG, () -> "Closing session " + session.id + ": " + reason);
    sessions.remove(session.id, session);
    if (session.remote()) {
      remotes.decrementAndGet();
      if (deleted) {
        events.removeSession(session.id);
        // The owner and every other route end it too; the record is removed by the caller.
        vertx.eventBus().publish(SESSION_GONE, gone(session.id, true));
      }
      runClosers(session);
      return;
    }
    reserved.decrementAndGet();
    if (instance != null && instance.isLive()) {
      // Routes elsewhere must not forward into the void: they look the session up again, and whoever gets the
      // next request claims it (the claim is let go here unless the session was deleted, which ends it anyway).
      vertx.eventBus().publish(SESSION_GONE, gone(session.id, deleted));
      instance.leases().releaseSession(session.id, instance.id());
    }
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
    runClosers(session);
  }

  private static void runClosers(HttpSession session) {
    for (Runnable closer : session.closers.values()) {
      closer.run();
    }
    session.closers.clear();
  }

  // ---- clustered ownership ----

  private JsonObject gone(String sessionId, boolean deleted) {
    return new JsonObject().put("id", sessionId).put("deleted", deleted).put("from", instance.id());
  }

  /**
   * Another instance ended a session or let it go: a route here is dropped (the next request looks it up again),
   * and a session deleted through another instance ends here too.
   */
  private void onSessionGone(JsonObject body) {
    String from = body.getString("from");
    if (from == null || from.equals(instance.id())) {
      return;
    }
    HttpSession session = sessions.get(body.getString("id", ""));
    if (session == null) {
      return;
    }
    if (session.remote()) {
      if (from.equals(session.ownerInstance) && !body.getBoolean("deleted", false)) {
        // Requests still waiting were being served there; they are answered with an error to send them again.
        session.ownerLost = true;
      }
      end(session, "let go by instance " + from, false);
    } else if (body.getBoolean("deleted", false)) {
      end(session, "deleted through instance " + from, false);
    }
  }

  /** The session is in use here: its claim lives as long as its stored record. */
  private void reclaim(HttpSession session) {
    if (session.remote() || !instance.isLive()) {
      return;
    }
    String me = instance.id();
    instance.leases().claimSession(session.id, me, stored.ttlMs()).onComplete(ar -> {
      if (ar.succeeded() && !ar.result().equals(me)) {
        // Someone else owns it now (our claim had ended): two instances must not run one session.
        end(session, "claimed by instance " + ar.result(), false);
      } else if (ar.failed()) {
        LOG.log(Level.WARNING, () -> "Session " + session.id + ": extending its claim failed: " + ar.cause());
      }
    });
  }

  /**
   * Checks the leases of the instances this one routes sessions to. A dead owner's routes are dropped, and the
   * requests they were waiting for are answered with an error that tells the client to send them again; the next
   * request claims the session (once the owner's lease is gone, which bounds how long this takes).
   */
  private void watchOwners() {
    Set<String> owners = new HashSet<>();
    for (HttpSession session : sessions.values()) {
      if (session.remote()) {
        owners.add(session.ownerInstance);
      }
    }
    for (String owner : owners) {
      instance.leases().isLive(owner).onSuccess(live -> {
        if (!live) {
          LOG.log(Level.WARNING, () -> "Instance " + owner + " stopped; its sessions move on their next request");
          for (HttpSession session : sessions.values()) {
            if (owner.equals(session.ownerInstance)) {
              session.ownerLost = true;
              end(session, "its instance stopped", false);
            }
          }
        }
      });
    }
  }

  /**
   * This instance lost its lease: others may claim its sessions from now on, so it stops running them. Their
   * records stay; their next requests restore them wherever they land.
   */
  private void leaseLost(String lostId) {
    for (HttpSession session : sessions.values()) {
      if (!session.remote()) {
        session.ownerLost = true;
        end(session, "this instance lost its lease", false);
      }
    }
  }

  /**
   * Ends every session here (the server is closing). Requests still waiting for answers, here or routed from other
   * instances, are answered with the error that tells the client to send them again: with shared stores, the
   * session goes on elsewhere.
   */
  Future<Void> closeAll() {
    for (HttpSession session : sessions.values()) {
      if (stored != null && !session.remote()) {
        session.ownerLost = true;
      }
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
    if (session.closed.get() && !session.ownerLost) {
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

  /** Event-bus address where instances say they ended or let go of a session (clustered). */
  static final String SESSION_GONE = "mcp.http.session-gone";

  /** A store a session needs could not be reached; the client should retry. */
  static final class StoreUnavailableException extends RuntimeException {
    StoreUnavailableException(Throwable cause) {
      super("a store did not answer: " + cause.getMessage(), cause, false, false);
    }
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
