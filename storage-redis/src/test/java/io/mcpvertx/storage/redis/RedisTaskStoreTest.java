package io.mcpvertx.storage.redis;

import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.mcpvertx.testing.stores.tasks.TaskStoreContract;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The task store contract, run against Redis. Redis-specific behaviour has tests of its own. */
class RedisTaskStoreTest extends TaskStoreContract {

  @RegisterExtension
  static final RedisServerExtension REDIS = new RedisServerExtension();

  private static Vertx vertx;
  private static RedisTaskStore store;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    TestRedis redis = REDIS.redis();
    store = RedisTaskStore.create(vertx, new RedisStoreOptions().setConnectionString(redis.url())
        .setKeyPrefix(redis.keyPrefix()).setCommandTimeoutMs(2_000));
  }

  @AfterAll
  static void stop() {
    await(store.close());
    await(vertx.close());
  }

  @Override
  protected TaskStore store() {
    return store;
  }

  @Override
  protected Vertx vertx() {
    return vertx;
  }
}
