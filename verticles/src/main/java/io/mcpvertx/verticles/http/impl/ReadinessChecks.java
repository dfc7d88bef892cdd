package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.server.McpStores;
import io.mcpvertx.verticles.http.McpHttpServer;
import io.vertx.core.Future;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The readiness checks of one endpoint, by name, in order: every store the endpoint and its server use, then what
 * the embedder adds before listening ({@link McpHttpServer#addReadinessCheck}). Not
 * changed once the endpoint listens, so {@link HealthRoutes} reads it without locking.
 */
final class ReadinessChecks {

  private final Map<String, Supplier<Future<Void>>> checks = new LinkedHashMap<>();
  /** Set when the endpoint starts shutting down: it is not ready from then on, whatever the stores say. */
  private volatile boolean stopping;

  ReadinessChecks(McpStores stores) {
    checks.put("eventStore", stores.events()::ping);
    stores.sessions().ifPresent(store -> checks.put("sessionStore", store::ping));
    checks.put("taskStore", stores.tasks()::ping);
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
