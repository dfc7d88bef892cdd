package io.mcpvertx.server.cluster.impl;

import io.mcpvertx.server.cluster.InstanceOptions;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.spi.leases.LeaseLostException;
import io.mcpvertx.spi.leases.LeaseStore;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * Holds and renews an instance lease on one context. State changes happen on that context only; {@link #id} and
 * {@link #isLive} are read from anywhere.
 */
public final class McpInstanceImpl implements McpInstance {

  private static final Logger LOG = LoggerFactory.getLogger(McpInstance.class);
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final long MAX_REGISTER_RETRY_MS = 5_000;

  private final Vertx vertx;
  private final LeaseStore leases;
  private final InstanceOptions options;
  private final Context context;
  private final List<Handler<String>> lostHandlers = new CopyOnWriteArrayList<>();
  private volatile String id;
  private volatile boolean live;
  private boolean started;
  private boolean closed;
  /** When the last successful renewal (or the registration) was sent: the lease lasts a TTL from then at least. */
  private long heldSince;
  private boolean renewing;
  private long timer = -1;

  public McpInstanceImpl(Vertx vertx, LeaseStore leases, InstanceOptions options) {
    this.vertx = vertx;
    this.leases = leases;
    this.options = options;
    this.context = vertx.getOrCreateContext();
    this.id = newId(options.getName());
  }

  @Override
  public Future<Void> start() {
    return onContext(() -> {
      if (started) {
        return Future.failedFuture(new IllegalStateException("already started"));
      }
      started = true;
      return register().onSuccess(r -> timer = vertx.setPeriodic(options.getRenewIntervalMs(),
          t -> context.runOnContext(x -> renew())));
    });
  }

  private Future<Void> register() {
    long sent = System.currentTimeMillis();
    String candidate = id;
    return leases.register(candidate, options.getLeaseTtlMs()).map(v -> {
      heldSince = sent;
      live = true;
      LOG.atInfo().log(() -> "Instance lease " + candidate + " registered (TTL " + options.getLeaseTtlMs()
          + " ms)");
      return null;
    });
  }

  private void renew() {
    if (closed || renewing) {
      return;
    }
    if (!live) {
      reRegister(options.getRenewIntervalMs());
      return;
    }
    long now = System.currentTimeMillis();
    if (now - heldSince >= options.getLeaseTtlMs()) {
      // No renewal got through for a whole TTL: the store may have let the lease lapse, and someone else may own
      // our sessions already. Stop before they can start.
      lost(id, "no renewal succeeded for " + (now - heldSince) + " ms");
      return;
    }
    String current = id;
    renewing = true;
    leases.renew(current, options.getLeaseTtlMs()).onComplete(ar -> context.runOnContext(v -> {
      renewing = false;
      if (closed || !current.equals(id)) {
        return;
      }
      if (ar.succeeded()) {
        heldSince = now;
      } else if (ar.cause() instanceof LeaseLostException) {
        lost(current, "the lease store no longer has it");
      } else {
        LOG.atWarn().log(() -> "Instance lease " + current + ": renewal failed (held for another "
            + (options.getLeaseTtlMs() - (System.currentTimeMillis() - heldSince)) + " ms at most): " + ar.cause());
      }
    }));
  }

  private void lost(String lostId, String why) {
    if (!live || !lostId.equals(id)) {
      return;
    }
    live = false;
    // The next id first: whoever learns of the loss from a handler already sees the id to be registered.
    id = newId(options.getName());
    LOG.atError().log(() -> "Instance lease " + lostId + " lost (" + why + "): giving up its sessions and tasks");
    for (Handler<String> handler : lostHandlers) {
      try {
        handler.handle(lostId);
      } catch (RuntimeException e) {
        LOG.error("A lease-lost handler failed", e);
      }
    }
    reRegister(options.getRenewIntervalMs());
  }

  private void reRegister(long retryMs) {
    if (closed || live || renewing) {
      return;
    }
    renewing = true;
    register().onComplete(ar -> context.runOnContext(v -> {
      renewing = false;
      if (ar.failed()) {
        LOG.atWarn().log(() -> "Instance lease " + id + ": registering again failed, retrying in " + retryMs
            + " ms: " + ar.cause());
        vertx.setTimer(retryMs, t -> context.runOnContext(x -> reRegister(Math.min(retryMs * 2,
            MAX_REGISTER_RETRY_MS))));
      } else if (closed) {
        leases.release(id);
        live = false;
      }
    }));
  }

  @Override
  public Future<Void> close() {
    return onContext(() -> {
      if (closed) {
        return Future.succeededFuture();
      }
      closed = true;
      if (timer >= 0) {
        vertx.cancelTimer(timer);
      }
      boolean held = live;
      live = false;
      return held ? leases.release(id) : Future.succeededFuture();
    });
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public boolean isLive() {
    return live;
  }

  @Override
  public McpInstance onLost(Handler<String> handler) {
    lostHandlers.add(handler);
    return this;
  }

  @Override
  public LeaseStore leases() {
    return leases;
  }

  @Override
  public InstanceOptions options() {
    return options;
  }

  private Future<Void> onContext(Supplier<Future<Void>> action) {
    Promise<Void> done = Promise.promise();
    context.runOnContext(v -> action.get().onComplete(done));
    return done.future();
  }

  private static String newId(String name) {
    byte[] random = new byte[12];
    RANDOM.nextBytes(random);
    return name + "-" + Base64.getUrlEncoder().withoutPadding().encodeToString(random);
  }
}
