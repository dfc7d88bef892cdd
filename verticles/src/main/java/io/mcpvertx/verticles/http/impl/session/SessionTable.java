package io.mcpvertx.verticles.http.impl.session;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.SessionState;
import io.mcpvertx.server.observe.McpObserver;
import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.spi.sessions.SessionStore;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.impl.SessionPlacement;
import io.mcpvertx.verticles.impl.SessionVerticle;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import java.lang.System.Logger.Level;
import java.lang.System.Logger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The sessions of one HTTP endpoint, shared by its HTTP verticles; thread-safe. A session is created by the
 * verticle that received its {@code initialize}: the table deploys the session verticle and a mailbox consumer for
 * the session's unsolicited messages ({@link SessionEvents}), and ends both when the session ends (deleted, idle,
 * never initialized, or the server closing). Sessions are bounded: a slot is reserved before anything is allocated.
 *
 * <p>With a shared session store, each session's record goes to the store whenever it changes, and a request
 * naming a session this table does not hold restores it from there ({@link #restore}). A session known here is
 * served without asking the store anything but a throttled, fire-and-forget extension of its lifetime
 * ({@link StoredSessions}). Clustered, an {@link Ownership} decides where each session runs.
 */
public final class SessionTable {

  private static final Logger LOG = System.getLogger(SessionTable.class.getName());

  private final Vertx vertx;
  private final McpServer server;
  private final McpHttpServerOptions options;
  private final EventStore events;
  /** The shared session store; null when sessions live in this endpoint only. */
  private final StoredSessions stored;
  private final SessionEvents streams;
  private final Map<String, HttpSession> sessions = new ConcurrentHashMap<>();
  private final Map<String, MessageConsumer<Object>> mailboxes = new ConcurrentHashMap<>();
  /**
   * Deployments of sessions handed over by a graceful stop: they serve nothing any more, and live on only for the
   * task handlers running on their contexts, until {@link #closeAll()}.
   */
  private final Map<String, String> handedOver = new ConcurrentHashMap<>();
  private final AtomicInteger reserved = new AtomicInteger();
  /** Sessions created here per client (a principal, or a remote address without auth), against the per-client cap. */
  private final Map<String, Integer> perClient = new ConcurrentHashMap<>();
  /** The client each session created here counts against. */
  private final Map<String, String> clientOf = new ConcurrentHashMap<>();
  /** Restorations under way, so that concurrent requests for one stored session restore it once. */
  private final Map<String, Future<HttpSession>> restoring = new ConcurrentHashMap<>();
  /** Session-store lookups under way; bounded like sessions. */
  private final AtomicInteger lookups = new AtomicInteger();
  /** Clustered only; set once, before any request. */
  private volatile Ownership ownership;
  private long sweeper = -1;

  public SessionTable(Vertx vertx, McpServer server, McpHttpServerOptions options, EventStore events,
      Optional<SessionStore> store) {
    this.vertx = vertx;
    this.server = server;
    this.options = options;
    this.events = events;
    this.stored = store.map(s -> new StoredSessions(s, options.getSessionIdleTimeoutMs(), this::close))
        .orElse(null);
    this.streams = new SessionEvents(vertx, events, server.codec(), stored != null);
  }

  /** Where this table's sessions publish what they emit. */
  public SessionEvents streams() {
    return streams;
  }

  /** The shared session store; null when sessions live in this endpoint only. */
  public StoredSessions stored() {
    return stored;
  }

  /** Whether other endpoints may serve this endpoint's sessions (shared stores). */
  public boolean shared() {
    return stored != null;
  }

  /** Clustered: who decides where sessions run. Set before any request. */
  public void ownership(Ownership ownership) {
    this.ownership = ownership;
  }

  /** The open session of this id held here (run here, or routed), or null. */
  public HttpSession session(String id) {
    HttpSession session = id == null ? null : sessions.get(id);
    return session == null || session.isClosed() ? null : session;
  }

  /** Every session held here, open or closing. */
  public Collection<HttpSession> all() {
    return sessions.values();
  }

  public int count() {
    return sessions.size();
  }

  /** A request used the session: it stays alive here, and its stored record too (throttled, not awaited). */
  public void used(HttpSession session) {
    session.touch();
    if (session.remote()) {
      ownership.usedRemote(session);
    } else if (stored != null) {
      stored.used(session);
    }
  }

  /**
   * Reserves a slot and deploys a new session, or fails with {@link SessionLimitException} when the endpoint is
   * full, or the client holds as many sessions as one client may: the client is the principal, or without
   * authorization the remote address {@code remoteHost}. The reservations are taken before anything is allocated,
   * so a flood of initializes costs nothing past the limits.
   */
  public Future<HttpSession> create(Principal principal, String remoteHost) {
    if (reserved.incrementAndGet() > options.getMaxSessions()) {
      reserved.decrementAndGet();
      return Future.failedFuture(new SessionLimitException());
    }
    String client = principal != null ? "principal " + principal.key() : "address " + remoteHost;
    if (!reserveFor(client)) {
      reserved.decrementAndGet();
      LOG.log(Level.DEBUG, () -> "Refused a session to " + client + ": it holds "
          + options.getMaxSessionsPerClient());
      return Future.failedFuture(new SessionLimitException());
    }
    Thread loop = SessionPlacement.here();
    HttpSession session = HttpSession.created(RandomIds.of(24), principal == null ? null : principal.key(),
        System.currentTimeMillis());
    clientOf.put(session.id(), client);
    Future<Void> claimed = ownership == null ? Future.succeededFuture() : ownership.claimNew(session.id());
    return claimed
        .recover(e -> {
          reserved.decrementAndGet();
          releaseFor(clientOf.remove(session.id()));
          return Future.failedFuture(new StoreUnavailableException(e));
        })
        .compose(v -> start(session, new SessionVerticle(server, session.id(), session.mailboxAddress(),
            principal), loop).onFailure(e -> close(session, "session start failed")));
  }

  private boolean reserveFor(String client) {
    boolean[] granted = {false};
    perClient.compute(client, (key, held) -> {
      int count = held == null ? 0 : held;
      if (count >= options.getMaxSessionsPerClient()) {
        return held;
      }
      granted[0] = true;
      return count + 1;
    });
    return granted[0];
  }

  private void releaseFor(String client) {
    if (client != null) {
      perClient.computeIfPresent(client, (key, held) -> held <= 1 ? null : held - 1);
    }
  }

  /**
   * Restores a session this table does not hold from the shared session store, for a request of {@code caller}:
   * null when there is no session store, no such record (never created, deleted, expired), or the record belongs to
   * another principal (which is answered as an unknown session), or cannot be restored. Concurrent requests for one
   * session restore it once. Fails with {@link SessionLimitException} when the endpoint is full (lookups in flight
   * count against the limit as well as sessions), and with the store's failure when it did not answer.
   */
  public Future<HttpSession> restore(String id, Principal caller) {
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
    Future<HttpSession> found = ownership != null ? ownership.find(id, caller)
        : stored.find(id).compose(record -> record == null ? Future.succeededFuture(null)
            : restoreHere(record, caller));
    found.onComplete(ar -> {
      lookups.decrementAndGet();
      restoring.remove(id, restored.future());
      restored.handle(ar);
    });
    return restored.future();
  }

  /** Runs a stored session here, for a request of {@code caller}; null when the caller may not use it. */
  public Future<HttpSession> restoreHere(SessionRecord record, Principal caller) {
    HttpSession session = HttpSession.fromRecord(record, caller, System.currentTimeMillis(), null);
    if (session == null) {
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
    return start(session, SessionVerticle.restoring(server, record, session.mailboxAddress()),
        SessionPlacement.here())
        .recover(e -> {
          LOG.log(Level.WARNING, () -> "Session " + record.sessionId() + " could not be restored: " + e);
          close(session, "restoring failed");
          return Future.succeededFuture(null);
        });
  }

  /**
   * How long a request the owner of its session did not take is held for the session to move; 0 when sessions do
   * not move between instances (no cluster).
   */
  public long failoverBoundMs() {
    return ownership == null ? 0 : ownership.failoverBoundMs();
  }

  /**
   * Where a session goes on once the owner of {@code route} did not take a request (it died, or let the session go):
   * waits, up to {@code boundMs}, until the owner is known gone, then ends the route (requests it still waits for
   * were the owner's, and are answered with the error to send them again) and finds the session anew: restored here
   * or routed to whoever claimed it. Null when the owner is still live after {@code boundMs}, or the session is
   * gone.
   */
  public Future<HttpSession> moved(HttpSession route, Principal caller, long boundMs) {
    return ownership.ownerGone(route, boundMs).compose(gone -> {
      if (!gone) {
        return Future.succeededFuture(null);
      }
      HttpSession current = session(route.id());
      if (current != null && current != route) {
        return Future.succeededFuture(current);
      }
      closeOwnerLost(route, "its instance stopped or let it go");
      return restore(route.id(), caller);
    });
  }

  /** Holds a route to a session another instance runs; the one held already if another request raced it here. */
  public HttpSession addRoute(HttpSession route) {
    HttpSession raced = sessions.putIfAbsent(route.id(), route);
    return raced != null ? raced : route;
  }

  /**
   * Registers the session's mailbox, then deploys its verticle (which stores its record when stores are shared) on
   * the event loop of {@code loop} when it can: the thread of the HTTP verticle whose request made the session.
   */
  private Future<HttpSession> start(HttpSession session, SessionVerticle verticle, Thread loop) {
    if (stored != null) {
      verticle.onPersistentChange(record -> {
        if (SessionState.OPERATING.name().equals(record.state())) {
          // notifications/initialized may have come through another instance, whose route saw it, not this
          // table: without this the sweeper would end a session in use as never initialized, and its task
          // handlers with it.
          session.initialized();
        }
        return stored.write(session, record);
      });
      verticle.onActivity(() -> used(session));
      verticle.answerOnStop();
      verticle.onCloseRequested(() -> end(session, "deleted through another instance", false, false));
    }
    MessageConsumer<Object> mailbox = vertx.eventBus().consumer(session.mailboxAddress(),
        m -> streams.unsolicited(session, m.body()));
    mailboxes.put(session.id(), mailbox);
    sessions.put(session.id(), session);
    return mailbox.completion()
        .compose(v -> SessionPlacement.deploy(vertx, verticle, loop))
        .map(deploymentId -> {
          session.deployed(deploymentId, verticle);
          if (session.isClosed()) {
            vertx.undeploy(deploymentId);
          }
          return session;
        });
  }

  /**
   * Ends a session here: its verticle, mailbox and open streams; its stored events too unless the stores are
   * shared (another instance may serve the session: the stores' expiry ends it there). Idempotent.
   */
  public void close(HttpSession session, String reason) {
    end(session, reason, false, false);
  }

  /**
   * Ends a session here because the instance serving it stopped (this one, or the owner of a route): requests
   * still waiting are answered with an error that tells the client to send them again. Idempotent.
   */
  public void closeOwnerLost(HttpSession session, String reason) {
    end(session, reason, false, true);
  }

  /**
   * Ends a session the client deleted, everywhere: here, and its events and record in the stores. Through a route,
   * the record goes first and then the owner is asked to end the session, and only its answer completes the
   * delete: so once the client has its answer, no instance serves the session any more.
   */
  public Future<Void> delete(HttpSession session) {
    if (!session.remote()) {
      end(session, "deleted by the client", true, false);
      return stored == null ? Future.succeededFuture() : stored.remove(session.id());
    }
    return stored.remove(session.id())
        .compose(v -> ownership.deleteRemote(session))
        .onComplete(ar -> end(session, "deleted by the client", true, false));
  }

  private void end(HttpSession session, String reason, boolean deleted, boolean ownerLost) {
    if (!session.close(ownerLost)) {
      if (deleted) {
        events.removeSession(session.id());
      }
      return;
    }
    LOG.log(Level.DEBUG, () -> "Closing session " + session.id() + ": " + reason);
    sessions.remove(session.id(), session);
    if (session.remote()) {
      ownership.ended(session, deleted);
      session.runClosers();
      return;
    }
    reserved.decrementAndGet();
    releaseFor(clientOf.remove(session.id()));
    if (ownership != null) {
      ownership.ended(session, deleted);
    }
    MessageConsumer<Object> mailbox = mailboxes.remove(session.id());
    if (mailbox != null) {
      mailbox.unregister();
    }
    if (session.deploymentId() != null && !handedOver.containsKey(session.id())) {
      vertx.undeploy(session.deploymentId()).onFailure(e ->
          LOG.log(Level.DEBUG, () -> "Session verticle " + session.id() + " was already gone"));
    }
    if (deleted || stored == null) {
      events.removeSession(session.id());
    }
    session.runClosers();
  }

  /**
   * Ends every session here (the server is closing). Requests still waiting for answers, here or routed from other
   * instances, are answered with the error that tells the client to send them again: with shared stores, the
   * session goes on elsewhere.
   */
  public void closeAll() {
    for (HttpSession session : sessions.values()) {
      end(session, "server closing", false, stored != null && !session.remote());
    }
    handedOver.forEach((id, deploymentId) -> vertx.undeploy(deploymentId).onFailure(e ->
        LOG.log(Level.DEBUG, () -> "Session verticle " + id + " was already gone")));
    handedOver.clear();
  }

  /**
   * For a graceful stop: ends each session run here as soon as it serves no request (or after {@code timeoutMs}),
   * so requests whose streams were handed to other instances finish here first. With shared stores the session
   * then moves: other instances drop their routes, and its next request claims and restores it wherever it lands.
   * Completes once every one has ended; {@link #closeAll()} ends what is left.
   */
  public Future<Void> handOverLocal(long timeoutMs) {
    List<Future<Void>> ended = new ArrayList<>();
    sessions.forEach((id, session) -> {
      SessionVerticle verticle = session.verticle();
      if (!session.remote() && verticle != null && session.deploymentId() != null) {
        ended.add(verticle.drain(timeoutMs).compose(v -> {
          if (stored == null) {
            end(session, "the server is stopping", false, false);
            return Future.succeededFuture();
          }
          // The verticle stays deployed (its task handlers run on its context) but takes no more messages.
          handedOver.put(id, session.deploymentId());
          return verticle.stopServing().onComplete(ar ->
              end(session, "handed over: the server is stopping", false, true));
        }));
      }
    });
    return Future.join(ended).mapEmpty();
  }

  /** Starts expiring idle sessions and sessions never initialized; called once, from the first verticle's context. */
  public void startSweeper() {
    long period = Math.max(100, Math.min(30_000,
        Math.min(options.getSessionIdleTimeoutMs(), options.getInitializeTimeoutMs()) / 4));
    sweeper = vertx.setPeriodic(period, t -> sweep());
  }

  public void stopSweeper() {
    if (sweeper >= 0) {
      vertx.cancelTimer(sweeper);
      sweeper = -1;
    }
  }

  private void sweep() {
    long now = System.currentTimeMillis();
    for (HttpSession session : sessions.values()) {
      // A route's state is what the record said when it was made: the instance running the session keeps time.
      if (session.state() == HttpSession.State.AWAITING_INITIALIZED && !session.remote()
          && now - session.createdAt() > options.getInitializeTimeoutMs()) {
        close(session, "not initialized in time");
      } else if (now - session.lastAccess() > options.getSessionIdleTimeoutMs()) {
        server.observer().ifPresent(McpObserver::sessionExpired);
        close(session, "idle");
      }
    }
  }
}
