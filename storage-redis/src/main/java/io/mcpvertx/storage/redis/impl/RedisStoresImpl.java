package io.mcpvertx.storage.redis.impl;

import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.leases.LeaseStore;
import io.mcpvertx.spi.sessions.SessionStore;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.storage.redis.RedisEventStore;
import io.mcpvertx.storage.redis.RedisLeaseStore;
import io.mcpvertx.storage.redis.RedisSessionStore;
import io.mcpvertx.storage.redis.RedisStoreOptions;
import io.mcpvertx.storage.redis.RedisStores;
import io.mcpvertx.storage.redis.RedisTaskStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;
import java.util.Objects;
import java.util.Optional;

/**
 * The four Redis stores over one client. None of them owns the client: the bundle closes it, after the stores, when
 * it made it.
 */
public final class RedisStoresImpl implements RedisStores {

  private final Redis client;
  private final boolean ownsClient;
  private final RedisTaskStore tasks;
  private final RedisEventStore events;
  private final RedisSessionStore sessions;
  private final RedisLeaseStore leases;

  public RedisStoresImpl(Vertx vertx, Redis client, RedisStoreOptions options, boolean ownsClient) {
    this.client = Objects.requireNonNull(client, "client");
    this.ownsClient = ownsClient;
    RedisStoreOptions copy = new RedisStoreOptions(options);
    this.tasks = RedisTaskStore.create(vertx, client, copy);
    this.events = RedisEventStore.create(vertx, client, copy);
    this.sessions = RedisSessionStore.create(vertx, client, copy);
    this.leases = RedisLeaseStore.create(vertx, client, copy);
  }

  @Override
  public Redis client() {
    return client;
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
    return Optional.of(sessions);
  }

  @Override
  public LeaseStore leases() {
    return leases;
  }

  @Override
  public Future<Void> close() {
    Future<Void> stores = Future.join(tasks.close(), events.close(), sessions.close(), leases.close()).mapEmpty();
    return ownsClient ? stores.transform(ar -> client.close()) : stores;
  }
}
