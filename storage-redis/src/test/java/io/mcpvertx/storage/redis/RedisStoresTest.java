package io.mcpvertx.storage.redis;

import static io.mcpvertx.storage.redis.Futures.await;
import static io.mcpvertx.storage.redis.Futures.awaitFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskIds;
import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The Redis store bundle: four stores over one client, shared by every bundle on the same Redis and prefix. */
class RedisStoresTest {

  @RegisterExtension
  static final RedisServerExtension REDIS = new RedisServerExtension();

  private Vertx vertx;
  private RedisStoreOptions options;

  @BeforeEach
  void start() {
    TestRedis redis = REDIS.redis();
    vertx = Vertx.vertx();
    options = new RedisStoreOptions().setConnectionString(redis.url()).setKeyPrefix(redis.keyPrefix());
  }

  @AfterEach
  void stop() {
    await(vertx.close());
  }

  @Test
  void aTaskCreatedThroughOneBundleIsReadThroughAnother() {
    RedisStores first = RedisStores.create(vertx, options);
    RedisStores second = RedisStores.create(vertx, options);
    try {
      await(first.ping());
      String id = await(first.tasks().create(new NewTask(first.tasks().newTaskId("alice"), "alice", 60_000L, null, null, 0)))
          .taskId();
      assertEquals("alice", await(second.tasks().get(id)).owner());
      assertTrue(first.sessions().isPresent(), "sessions on Redis are shared");
    } finally {
      await(first.close());
      await(second.close());
    }
  }

  @Test
  void closingTheBundleClosesTheClientItMade() {
    RedisStores stores = RedisStores.create(vertx, options);
    await(stores.client().send(Request.cmd(Command.PING)));
    await(stores.close());
    awaitFailure(stores.client().send(Request.cmd(Command.PING)));
  }

  @Test
  void closingTheBundleLeavesTheCallersClientOpen() {
    Redis client = Redis.createClient(vertx, options.toRedisOptions());
    RedisStores stores = RedisStores.create(vertx, client, options);
    try {
      assertEquals(client, stores.client());
      await(stores.ping());
      await(stores.close());
      assertEquals("PONG", await(client.send(Request.cmd(Command.PING))).toString());
    } finally {
      await(client.close());
    }
  }
}
