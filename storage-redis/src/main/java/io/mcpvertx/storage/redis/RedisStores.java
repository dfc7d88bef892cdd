package io.mcpvertx.storage.redis;

import io.mcpvertx.server.McpStores;
import io.mcpvertx.storage.redis.impl.RedisStoresImpl;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;

/**
 * Every store a server needs, in Redis and over one client: tasks, SSE events, sessions (shared, so any instance
 * can serve any session) and instance leases. Every instance of a deployment configured with the same Redis and key
 * prefix serves the same clients.
 *
 * <pre>{@code
 * RedisStores stores = RedisStores.create(vertx, new RedisStoreOptions().setConnectionString("redis://redis:6379"));
 * McpServer server = McpServer.create(vertx, new McpServerOptions(), stores);
 * McpHttpServer.create(vertx, server, new McpHttpServerOptions()).listen();
 * }</pre>
 *
 * <p>Make the stores outside any verticle, or in one that lives as long as their users: the task store's
 * subscription runs its timers on the context it is created on. Close them after the server. See
 * {@link RedisTaskStore}, {@link RedisEventStore}, {@link RedisSessionStore} and {@link RedisLeaseStore} for what
 * each keeps and how.
 */
public interface RedisStores extends McpStores {

  /** The stores on a client of their own, made from {@code options}; {@link #close()} closes it. */
  static RedisStores create(Vertx vertx, RedisStoreOptions options) {
    return new RedisStoresImpl(vertx, Redis.createClient(vertx, options.toRedisOptions()), options, true);
  }

  /**
   * The stores on a client the caller owns and closes ({@link #close()} leaves it open). Only the key prefix, the
   * timeouts, the bounds and the WAIT settings of {@code options} apply; the connection settings are the client's.
   * The task store's subscription takes one connection of the client for itself.
   */
  static RedisStores create(Vertx vertx, Redis client, RedisStoreOptions options) {
    return new RedisStoresImpl(vertx, client, options, false);
  }

  /** The client the stores share: for anything else the application keeps in the same Redis. */
  Redis client();
}
