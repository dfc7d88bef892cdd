package io.mcpvertx.verticles.http.impl.cluster;

import io.mcpvertx.server.Principal;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.verticles.bus.McpEventBus;
import io.mcpvertx.verticles.http.impl.session.HttpSession;
import io.mcpvertx.verticles.http.impl.session.Ownership;
import io.mcpvertx.verticles.http.impl.session.SessionLimitException;
import io.mcpvertx.verticles.http.impl.session.SessionTable;
import io.mcpvertx.verticles.http.impl.session.StoredSessions;
import io.mcpvertx.verticles.impl.SessionVerticle;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Clustered ownership and routing of HTTP sessions (shared stores, and a server that is a deployment
 * {@link McpInstance}): this instance's lease makes it the one owner of the sessions it runs. A new session is
 * claimed for this instance; a stored session this instance does not hold is routed to the live instance that owns
 * it (requests go to its verticle over the clustered event bus), or claimed and restored here when nobody does, the
 * lease store deciding between several claimers.
 *
 * <p>Instances say on {@link #SESSION_GONE} when they end or let go of a session, so routes elsewhere are dropped
 * and looked up again; owners of routes are watched, and a dead owner's routes end with the retry error for what
 * waited on them. When this instance loses its lease it stops running its sessions: their next requests restore
 * them wherever they land. Thread-safe.
 */
public final class SessionOwnership implements Ownership {

  private static final Logger LOG = System.getLogger(SessionOwnership.class.getName());

  /** Event-bus address where instances say they ended or let go of a session. */
  static final String SESSION_GONE = "mcp.http.session-gone";
  /** How long a delete through a route waits for the owner to end the session. */
  private static final long DELETE_TIMEOUT_MS = 5_000;

  private final Vertx vertx;
  private final McpInstance instance;
  private final SessionTable table;
  private final StoredSessions stored;
  private final EventStore events;
  private final int maxRoutes;
  /** Routes to sessions whose verticle runs on another instance; bounded like sessions. */
  private final AtomicInteger remotes = new AtomicInteger();
  private MessageConsumer<JsonObject> goneConsumer;
  private long ownerWatch = -1;

  /**
   * Takes ownership decisions for {@code table}, whose stores are shared.
   *
   * @param maxRoutes how many routes to other instances' sessions may be held at once
   */
  public SessionOwnership(Vertx vertx, McpInstance instance, SessionTable table, EventStore events, int maxRoutes) {
    this.vertx = vertx;
    this.instance = instance;
    this.table = table;
    this.stored = table.stored();
    this.events = events;
    this.maxRoutes = maxRoutes;
    stored.onExtended(this::reclaim);
    instance.onLost(this::leaseLost);
    table.ownership(this);
  }

  /** Starts hearing of sessions other instances let go, and watching the owners of routes. */
  public void start() {
    goneConsumer = vertx.eventBus().consumer(SESSION_GONE, m -> onSessionGone(m.body()));
    ownerWatch = vertx.setPeriodic(instance.options().getRenewIntervalMs(), t -> watchOwners());
  }

  public void stop() {
    if (ownerWatch >= 0) {
      vertx.cancelTimer(ownerWatch);
      ownerWatch = -1;
    }
    if (goneConsumer != null) {
      goneConsumer.unregister();
      goneConsumer = null;
    }
  }

  @Override
  public Future<Void> claimNew(String sessionId) {
    return instance.leases().claimSession(sessionId, instance.id(), stored.ttlMs()).compose(owner ->
        owner.equals(instance.id()) ? Future.succeededFuture()
            : Future.failedFuture(new IllegalStateException("a new session id is claimed already")));
  }

  @Override
  public Future<HttpSession> find(String sessionId, Principal caller) {
    return Future.all(stored.find(sessionId), instance.leases().sessionOwner(sessionId)).compose(both -> {
      SessionRecord record = both.resultAt(0);
      return record == null ? Future.succeededFuture(null) : route(record, both.resultAt(1), caller);
    });
  }

  /**
   * Serves a stored session from wherever it runs. A session another live instance owns gets a route here; one
   * nobody owns (new here, or its owner stopped and its lease is gone) is claimed, and the store decides which of
   * several claimers wins, so exactly one instance runs it.
   */
  private Future<HttpSession> route(SessionRecord record, String owner, Principal caller) {
    if (HttpSession.fromRecord(record, caller, System.currentTimeMillis(), null) == null) {
      return Future.succeededFuture(null); // the caller may not use it
    }
    HttpSession held = table.session(record.sessionId());
    if (held != null) {
      return Future.succeededFuture(held);
    }
    if (owner != null && !owner.equals(instance.id())) {
      return Future.succeededFuture(remote(record, caller, owner));
    }
    return instance.leases().claimSession(record.sessionId(), instance.id(), stored.ttlMs()).compose(winner ->
        winner.equals(instance.id()) ? table.restoreHere(record, caller)
            : Future.succeededFuture(remote(record, caller, winner)));
  }

  /** A route to a session another instance runs; thrown out when the owner stops or lets the session go. */
  private HttpSession remote(SessionRecord record, Principal caller, String ownerInstance) {
    HttpSession held = table.session(record.sessionId());
    if (held != null) {
      return held;
    }
    if (remotes.incrementAndGet() > maxRoutes) {
      remotes.decrementAndGet();
      throw new SessionLimitException();
    }
    HttpSession route = HttpSession.fromRecord(record, caller, System.currentTimeMillis(), ownerInstance);
    HttpSession added = table.addRoute(route);
    if (added != route) {
      remotes.decrementAndGet();
      return added;
    }
    LOG.log(Level.DEBUG, () -> "Session " + route.id() + " runs on instance " + ownerInstance + "; routing to it");
    return route;
  }

  @Override
  public void ended(HttpSession session, boolean deleted) {
    if (session.remote()) {
      remotes.decrementAndGet();
      if (deleted) {
        events.removeSession(session.id());
        // The owner and every other route end it too; the record is removed by the caller.
        vertx.eventBus().publish(SESSION_GONE, gone(session.id(), true));
      }
      return;
    }
    if (instance.isLive()) {
      // Routes elsewhere must not forward into the void: they look the session up again, and whoever gets the
      // next request claims it (the claim is let go here unless the session was deleted, which ends it anyway).
      vertx.eventBus().publish(SESSION_GONE, gone(session.id(), deleted));
      instance.leases().releaseSession(session.id(), instance.id());
    }
  }

  @Override
  public void usedRemote(HttpSession session) {
    // The owner hears of requests it serves; a client that only follows a stream here would look idle there.
    if (session.storeTouchDue(System.currentTimeMillis(), stored.touchIntervalMs())) {
      vertx.eventBus().send(McpEventBus.sessionAddress(session.id()), null,
          new DeliveryOptions().addHeader(SessionVerticle.TOUCH, "1"));
    }
  }

  @Override
  public Future<Void> deleteRemote(HttpSession session) {
    return vertx.eventBus().request(McpEventBus.sessionAddress(session.id()), null,
            new DeliveryOptions().addHeader(SessionVerticle.CLOSE, "1").setSendTimeout(DELETE_TIMEOUT_MS))
        .<Void>mapEmpty()
        // No handler: the owner let it go already. A timeout: the owner is dying; its lease ends it.
        .recover(e -> Future.succeededFuture());
  }

  @Override
  public long failoverBoundMs() {
    // The lease lapses within its TTL of the death, and a live instance renews at least once per interval.
    return instance.options().getLeaseTtlMs() + 2 * instance.options().getRenewIntervalMs();
  }

  @Override
  public Future<Boolean> ownerGone(HttpSession route, long boundMs) {
    long deadline = System.currentTimeMillis() + boundMs;
    // Often enough that a held request goes on soon after the lease lapses, whatever the renew interval.
    long pause = Math.max(20, Math.min(250, instance.options().getRenewIntervalMs() / 2));
    Promise<Boolean> gone = Promise.promise();
    checkOwner(route, deadline, pause, gone);
    return gone.future();
  }

  /**
   * Looks until the route's owner let the session go (the route is closed) or its lease is gone (true), or until
   * {@code deadline} (false). A lease lapses only within its TTL of the death, so the first looks usually find it
   * live.
   */
  private void checkOwner(HttpSession route, long deadline, long pause, Promise<Boolean> gone) {
    if (route.isClosed()) {
      gone.complete(true);
      return;
    }
    instance.leases().isLive(route.ownerInstance()).onComplete(ar -> {
      if (route.isClosed() || (ar.succeeded() && !ar.result())) {
        gone.complete(true);
      } else if (System.currentTimeMillis() + pause > deadline) {
        gone.complete(false);
      } else {
        vertx.setTimer(pause, t -> checkOwner(route, deadline, pause, gone));
      }
    });
  }

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
    HttpSession session = table.session(body.getString("id", ""));
    if (session == null) {
      return;
    }
    if (session.remote()) {
      if (from.equals(session.ownerInstance()) && !body.getBoolean("deleted", false)) {
        // Requests still waiting were being served there; they are answered with an error to send them again.
        table.closeOwnerLost(session, "let go by instance " + from);
      } else {
        table.close(session, "let go by instance " + from);
      }
    } else if (body.getBoolean("deleted", false)) {
      table.close(session, "deleted through instance " + from);
    }
  }

  /** The session is in use here: its claim lives as long as its stored record. */
  private void reclaim(HttpSession session) {
    if (session.remote() || !instance.isLive()) {
      return;
    }
    String me = instance.id();
    instance.leases().claimSession(session.id(), me, stored.ttlMs()).onComplete(ar -> {
      if (ar.succeeded() && !ar.result().equals(me)) {
        // Someone else owns it now (our claim had ended): two instances must not run one session.
        table.close(session, "claimed by instance " + ar.result());
      } else if (ar.failed()) {
        LOG.log(Level.WARNING, () -> "Session " + session.id() + ": extending its claim failed: " + ar.cause());
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
    for (HttpSession session : table.all()) {
      if (session.remote()) {
        owners.add(session.ownerInstance());
      }
    }
    for (String owner : owners) {
      instance.leases().isLive(owner).onSuccess(live -> {
        if (!live) {
          LOG.log(Level.WARNING, () -> "Instance " + owner + " stopped; its sessions move on their next request");
          for (HttpSession session : table.all()) {
            if (owner.equals(session.ownerInstance())) {
              table.closeOwnerLost(session, "its instance stopped");
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
    for (HttpSession session : table.all()) {
      if (!session.remote()) {
        table.closeOwnerLost(session, "this instance lost its lease");
      }
    }
  }
}
