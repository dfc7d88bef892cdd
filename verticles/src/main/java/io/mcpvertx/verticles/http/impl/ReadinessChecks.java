package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.server.McpStores;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.verticles.http.McpHttpServer;
import io.vertx.core.Future;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The readiness checks of one endpoint, by name, in order: every store the endpoint and its server use, the lease of
 * the server's deployment instance if it has one, then what
 * the embedder adds before listening ({@link McpHttpServer#addReadinessCheck}). Not
 * changed once the endpoint listens, so {@link HealthRoutes} reads it without locking.
 */
final class ReadinessChecks {

  private final Map<String, Supplier<Future<Void>>> checks = new LinkedHashMap<>();
  /** Set when the endpoint starts shutting down: it is not ready from then on, whatever the stores say. */
  private volatile boolean stopping;

  /** @param instance the deployment instance of the endpoint's server; empty when it stands alone */
  ReadinessChecks(McpStores stores, Optional<McpInstance> instance) {
    checks.put("eventStore", stores.events()::ping);
    stores.sessions().ifPresent(store -> checks.put("sessionStore", store::ping));
    checks.put("taskStore", stores.tasks()::ping);
    instance.ifPresent(member -> {
      checks.put("leaseStore", stores.leases()::ping);
      // An instance whose lease lapsed may own no session and settle no task: others have taken them over.
      checks.put("lease", () -> member.isLive() ? Future.succeededFuture()
          : Future.failedFuture("this instance holds no lease (not started yet, or lost)"));
    });
  }

  /** The endpoint is shutting down: readiness fails from now on, so a load balancer sends nothing new here. */
  void stopping() {
    stopping = true;
  }

  boolean isStopping() {
    return stopping;
  }

  void add(String name, Supplier<Future<Void>> check) {
    checks.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(check, "check"));
  }

  Map<String, Supplier<Future<Void>>> all() {
    return Collections.unmodifiableMap(checks);
  }
}
