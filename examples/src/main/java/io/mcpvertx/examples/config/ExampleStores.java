package io.mcpvertx.examples.config;

import io.mcpvertx.server.McpStores;
import io.mcpvertx.storage.redis.RedisStoreOptions;
import io.mcpvertx.storage.redis.RedisStores;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The stores an example runs on, as its configuration chose: in this process, or on Redis (one client shared by the
 * task, event, session and lease stores). Make them outside any verticle, before the server; close them after it.
 */
public final class ExampleStores {

  private final McpStores stores;
  private final Redis redis;

  private ExampleStores(McpStores stores, Redis redis) {
    this.stores = stores;
    this.redis = redis;
  }

  /**
   * The stores of {@code config}. On Redis, completes once Redis answered a {@code PING}, so a server that cannot
   * reach it does not start; fails with a message naming the Redis otherwise.
   */
  public static Future<ExampleStores> create(Vertx vertx, ExampleConfig config) {
    if (config.store() == ExampleConfig.Store.MEMORY) {
      return Future.succeededFuture(new ExampleStores(McpStores.inMemory(vertx), null));
    }
    RedisStoreOptions options = config.redis();
    RedisStores redis = RedisStores.create(vertx, options);
    return redis.client().send(Request.cmd(Command.PING))
        .<ExampleStores>map(pong -> new ExampleStores(redis, redis.client()))
        .recover(e -> {
          redis.close();
          return Future.failedFuture(new IllegalStateException("Redis at " + options.getConnectionStrings()
              + " did not answer: " + e.getMessage(), e));
        });
  }

  /**
   * Where tasks, SSE events, sessions (on Redis) and leases are kept: give them to
   * {@code McpServer.create(vertx, options, stores)}, and their lease store to {@code McpInstance.create}.
   */
  public McpStores stores() {
    return stores;
  }

  /**
   * The requestState key every instance sharing this Redis uses when none is configured: the first instance to
   * ask stores a random one ({@code SET NX}), and every instance reads that one. Anyone who can write to this
   * Redis can read it, as they can every session and task in it; configure keys explicitly to keep them apart.
   * Fails without Redis.
   */
  public Future<String> sharedRequestStateKey(Vertx vertx, String keyPrefix) {
    if (redis == null) {
      return Future.failedFuture(new IllegalStateException("no Redis to share a key through"));
    }
    byte[] random = new byte[32];
    new SecureRandom().nextBytes(random);
    String candidate = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    String key = keyPrefix + "request-state-key";
    return redis.send(Request.cmd(Command.SET).arg(key).arg(candidate).arg("NX"))
        .compose(set -> redis.send(Request.cmd(Command.GET).arg(key)))
        .map(value -> value.toString());
  }

  /** Closes the stores (and the Redis client, if any). */
  public Future<Void> close() {
    return stores.close();
  }
}
