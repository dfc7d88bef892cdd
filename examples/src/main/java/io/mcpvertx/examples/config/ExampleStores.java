package io.mcpvertx.examples.config;

import io.mcpvertx.spi.leases.LeaseStore;
import io.mcpvertx.spi.leases.memory.InMemoryLeaseStore;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.memory.InMemoryTaskStore;
import io.mcpvertx.storage.redis.RedisEventStore;
import io.mcpvertx.storage.redis.RedisLeaseStore;
import io.mcpvertx.storage.redis.RedisSessionStore;
import io.mcpvertx.storage.redis.RedisStoreOptions;
import io.mcpvertx.storage.redis.RedisTaskStore;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.http.McpHttpStores;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;

/**
 * The stores an example runs on, as its configuration chose: in this process, or on Redis (one client shared by the
 * task, event and session stores). Make them outside any verticle, before the server; close them after it.
 */
public final class ExampleStores {

  private final TaskStore tasks;
  private final McpHttpStores http;
  private final LeaseStore leases;
  private final Redis redis;

  private ExampleStores(TaskStore tasks, McpHttpStores http, LeaseStore leases, Redis redis) {
    this.tasks = tasks;
    this.http = http;
    this.leases = leases;
    this.redis = redis;
  }

  /**
   * The stores of {@code config}. On Redis, completes once Redis answered a {@code PING}, so a server that cannot
   * reach it does not start; fails with a message naming the Redis otherwise.
   */
  public static Future<ExampleStores> create(Vertx vertx, ExampleConfig config) {
    McpHttpServerOptions httpOptions = config.httpOptions();
    if (config.store() == ExampleConfig.Store.MEMORY) {
      return Future.succeededFuture(new ExampleStores(InMemoryTaskStore.create(vertx),
          McpHttpStores.inMemory(httpOptions), InMemoryLeaseStore.create(), null));
    }
    RedisStoreOptions options = config.redis();
    Redis client = Redis.createClient(vertx, options.toRedisOptions());
    return client.send(Request.cmd(Command.PING))
        .<ExampleStores>map(pong -> new ExampleStores(RedisTaskStore.create(vertx, client, options),
            McpHttpStores.shared(RedisEventStore.create(client, options), RedisSessionStore.create(client, options)),
            RedisLeaseStore.create(client, options), client))
        .recover(e -> {
          client.close();
          return Future.failedFuture(new IllegalStateException("Redis at " + options.getConnectionStrings()
              + " did not answer: " + e.getMessage(), e));
        });
  }

  /** Where tasks are kept: give it to {@code McpServer.create(vertx, options, tasks)}. */
  public TaskStore tasks() {
    return tasks;
  }

  /** Where SSE events (and, shared, sessions) are kept: give it to {@code McpHttpServer.create}. */
  public McpHttpStores http() {
    return http;
  }

  /** Who owns sessions and task executions among the instances: give it to {@code McpInstance.create}. */
  public LeaseStore leases() {
    return leases;
  }

  /** Closes the Redis client, if any. */
  public Future<Void> close() {
    return redis == null ? Future.succeededFuture() : redis.close();
  }
}
