package io.mcpvertx.storage.redis;

import static io.mcpvertx.storage.redis.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskIds;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.RedisClientType;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The stores through the client's sentinel and replication modes, against a private master with a replica and a
 * sentinel. (Cluster mode runs both contracts in {@link RedisClusterModeTest}.)
 */
class RedisTopologiesTest {

  @RegisterExtension
  static final RedisServerExtension REDIS = new RedisServerExtension();

  private static Vertx vertx;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    await(vertx.close());
  }

  @BeforeEach
  void needsAPrivateRedis() {
    REDIS.redis().assumePrivate();
  }

  @Test
  void worksThroughASentinel() throws InterruptedException {
    TestRedis master = REDIS.redis();
    try (TestRedis sentinel = master.startSentinel("primary")) {
      exercise(options().setType(RedisClientType.SENTINEL).setConnectionString(sentinel.url())
          .setMasterName("primary"));
    }
  }

  @Test
  void worksInReplicationMode() throws InterruptedException {
    TestRedis master = REDIS.redis();
    try (TestRedis replica = master.startReplica()) {
      exercise(options().setType(RedisClientType.REPLICATION)
          .setConnectionStrings(List.of(master.url(), replica.url())).setWaitReplicas(1));
    }
  }

  private static RedisStoreOptions options() {
    return new RedisStoreOptions().setKeyPrefix(REDIS.redis().keyPrefix()).setCommandTimeoutMs(5_000);
  }

  /** Creates, listens, changes and reads a task, and appends and replays events. */
  private static void exercise(RedisStoreOptions options) throws InterruptedException {
    RedisTaskStore tasks = RedisTaskStore.create(vertx, options);
    RedisEventStore events = RedisEventStore.create(vertx, options);
    try {
      BlockingQueue<TaskChange> heard = new LinkedBlockingQueue<>();
      TaskStore.Registration registration = await(tasks.listen(heard::add));
      String owner = "owner-" + TaskIds.generate();
      String id = await(tasks.create(new NewTask(tasks.newTaskId(owner), owner, 60_000L, null, null, 1))).taskId();
      await(tasks.complete(id, TaskStatus.COMPLETED, new JsonObject().put("content", List.of()), null, null));
      assertEquals(new TaskChange(TaskChange.Kind.STATUS, id, TaskStatus.COMPLETED),
          heard.poll(10, TimeUnit.SECONDS));
      assertEquals(TaskStatus.COMPLETED, await(tasks.get(id)).status());
      assertEquals(false, await(tasks.transition(id, EnumSet.allOf(TaskStatus.class), TaskStatus.WORKING, null))
          .applied());
      await(registration.unregister());

      String session = "s-" + TaskIds.generate();
      String first = await(events.append(session, "p1", Buffer.buffer("1")));
      await(events.append(session, "p1", Buffer.buffer("2")));
      EventStore.Replay replay = await(events.replayAfter(session, first));
      assertEquals(List.of("2"), replay.events().stream().map(e -> e.data().toString()).toList());
    } finally {
      await(tasks.close());
      await(events.close());
    }
  }
}
