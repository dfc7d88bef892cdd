package io.mcpvertx.metrics.impl;

import io.mcpvertx.server.McpStores;
import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.leases.LeaseStore;
import io.mcpvertx.spi.sessions.SessionStore;
import io.mcpvertx.spi.tasks.TaskStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Optional;

/** A bundle whose stores are the metered decorators of another bundle's. Immutable. */
final class MeteredStores implements McpStores {

  private final TaskStore tasks;
  private final EventStore events;
  private final Optional<SessionStore> sessions;
  private final LeaseStore leases;

  private MeteredStores(McpStores stores, MeterRegistry registry) {
    this.tasks = new MeteredTaskStore(stores.tasks(), registry);
    this.events = new MeteredEventStore(stores.events(), registry);
    this.sessions = stores.sessions().map(store -> new MeteredSessionStore(store, registry));
    this.leases = new MeteredLeaseStore(stores.leases(), registry);
  }

  static McpStores wrap(McpStores stores, MeterRegistry registry) {
    return new MeteredStores(stores, registry);
  }

  @Override
  public TaskStore tasks() {
    return tasks;
  }

  @Override
  public EventStore events() {
    return events;
  }

  @Override
  public Optional<SessionStore> sessions() {
    return sessions;
  }

  @Override
  public LeaseStore leases() {
    return leases;
  }
}
