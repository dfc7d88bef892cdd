package io.mcpvertx.server.cluster;

import io.mcpvertx.server.cluster.impl.McpInstanceImpl;
import io.mcpvertx.spi.leases.LeaseStore;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;

/**
 * This process as one instance of a deployment: it holds a lease in a {@link LeaseStore}, renews it, and tells
 * the parts that own things (sessions, task executions) when it has lost it.
 *
 * <p>The lease is held under an {@link #id} that is new for every registration: when a renewal finds the lease
 * gone (the instance was paused longer than the TTL, or cut off from the store), the instance is
 * {@link #onLost told}, gives up what it owned, and registers again under a new id. An instance also counts its
 * lease as lost, by its own clock, when no renewal succeeded for a whole TTL: so it stops serving no later than
 * the store lets anyone else take over.
 *
 * <p>Make it on the lease store of the server's stores, {@code McpInstance.create(vertx, stores.leases(), options)},
 * and pass it to {@code McpServer.create(vertx, serverOptions, stores, instance)}; the HTTP transport uses the same
 * instance for session ownership.
 */
public interface McpInstance {

  static McpInstance create(Vertx vertx, LeaseStore leases, InstanceOptions options) {
    return new McpInstanceImpl(vertx, leases, new InstanceOptions(options).validate());
  }

  /** Registers the lease and starts renewing it; fails when the store cannot be reached. */
  Future<Void> start();

  /** Stops renewing and releases the lease, so others take over at once. Idempotent. */
  Future<Void> close();

  /** The id the lease is held under now; changes when a lost lease is registered again. */
  String id();

  /** Whether the lease is held now, as far as this instance knows (false before start, after close or loss). */
  boolean isLive();

  /**
   * Called, with the id whose lease was lost, on the instance's context, before it registers again. Handlers must
   * give up everything owned under that id.
   */
  McpInstance onLost(Handler<String> handler);

  LeaseStore leases();

  InstanceOptions options();
}
