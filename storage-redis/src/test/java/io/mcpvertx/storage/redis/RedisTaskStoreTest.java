package io.mcpvertx.storage.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskIds;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.TaskStoreException;
import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.mcpvertx.testing.stores.tasks.TaskStoreContract;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The task store contract, run against Redis, and the one promise only a remote store can be asked to keep: a
 * create that arrives after it was abandoned creates nothing. Other Redis-specific behaviour has tests of its own.
 */
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

  @Test
  void aCreateThatArrivesAfterItWasAbandonedCreatesNothing() {
    String owner = "owner-" + TaskIds.generate();
    NewTask task = new NewTask(store.newTaskId(owner), owner, 60_000L, null, null, 1);
    await(store.abandon(task));
    TaskStoreException refused = assertInstanceOf(TaskStoreException.class, awaitFailure(store.create(task)));
    assertEquals(TaskStoreException.Reason.DUPLICATE_ID, refused.reason());
    assertNull(await(store.get(task.taskId())));
    assertTrue(await(store.list(task.owner(), null, 10)).tasks().isEmpty());
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
