package io.mcpvertx.storage.redis;

import static io.mcpvertx.storage.redis.Futures.await;
import static io.mcpvertx.storage.redis.Futures.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskIds;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.TaskStoreException;
import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redis going away, hanging, restarting or forgetting its scripts: calls fail fast and clearly, the subscription
 * comes back by itself and tells its listeners to re-read, and nothing acknowledged is lost. Needs a private
 * Redis, which these tests stop and pause.
 */
class RedisTaskStoreOutageTest {

  @RegisterExtension
  static final RedisServerExtension REDIS = new RedisServerExtension();

  private static final long TIMEOUT_MS = 500;
  private static final Set<TaskStatus> ACTIVE = EnumSet.of(TaskStatus.WORKING, TaskStatus.INPUT_REQUIRED);
  private static final JsonObject RESULT = new JsonObject().put("content", List.of());

  private static Vertx vertx;
  private static RedisTaskStore store;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    TestRedis redis = REDIS.redis();
    RedisStoreOptions options = new RedisStoreOptions().setConnectionString(redis.url())
        .setKeyPrefix(redis.keyPrefix()).setReconnectDelayMs(50).setPingIntervalMs(200);
    // A cold JVM takes longer than the short timeout below for its first connection (classes, handshake).
    RedisTaskStore warmUp = RedisTaskStore.create(vertx, new RedisStoreOptions(options).setCommandTimeoutMs(10_000));
    await(await(warmUp.listen(change -> { })).unregister());
    await(warmUp.close());
    store = RedisTaskStore.create(vertx, options.setCommandTimeoutMs(TIMEOUT_MS));
  }

  @AfterAll
  static void stop() {
    await(store.close());
    await(vertx.close());
  }

  @BeforeEach
  void needsAPrivateRedis() {
    REDIS.redis().assumePrivate();
  }

  @Test
  void everyCallFailsFastWhileRedisIsDownAndWorksAgainOnceItIsBack() {
    TestRedis redis = REDIS.redis();
    String owner = owner();
    TaskRecord acknowledged = await(store.create(new NewTask(store.newTaskId(owner), owner, 60_000L, null, null, 0)));
    String id = acknowledged.taskId();
    redis.stop();
    try {
      Map<String, Supplier<Future<?>>> calls = new LinkedHashMap<>();
      calls.put("create", () -> store.create(new NewTask(store.newTaskId(owner), owner, null, null, null, 0)));
      calls.put("get", () -> store.get(id));
      calls.put("transition", () -> store.transition(id, ACTIVE, TaskStatus.CANCELLED, null));
      calls.put("complete", () -> store.complete(id, TaskStatus.COMPLETED, RESULT, null, null));
      calls.put("requestInput", () -> store.requestInput(id, Map.of("k", new JsonObject()), null));
      calls.put("respond", () -> store.respond(id, Map.of("k", new JsonObject())));
      calls.put("list", () -> store.list(owner, null, 10));
      calls.put("listen", () -> store.listen(change -> { }));
      calls.forEach((name, call) -> assertUnavailableWithinTimeout(name, call));
    } finally {
      redis.restart();
    }
    assertEquals(acknowledged, await(store.get(id)), "an acknowledged task survives the outage");
    await(store.create(new NewTask(store.newTaskId(owner), owner, null, null, null, 0)));
    assertTrue(await(store.complete(id, TaskStatus.COMPLETED, RESULT, null, null)).applied());
    await(await(store.listen(change -> { })).unregister());
  }

  @Test
  void callsFailWithinTheTimeoutWhenRedisDoesNotAnswer() throws InterruptedException {
    TestRedis redis = REDIS.redis();
    String id = await(store.create(newTask(store, owner(), 60_000L, null, null, 0))).taskId();
    redis.call("CLIENT", "PAUSE", "1500", "ALL");
    long start = System.nanoTime();
    assertUnavailableWithinTimeout("get", () -> store.get(id));
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    assertTrue(elapsedMs >= TIMEOUT_MS - 50, "gave up after " + elapsedMs + " ms, before the timeout");
    Thread.sleep(Math.max(0, 1_600 - elapsedMs));
    assertEquals(TaskStatus.WORKING, await(store.get(id)).status());
  }

  @Test
  void afterARestartTheSubscriptionComesBackAndListenersResync() throws InterruptedException {
    TestRedis redis = REDIS.redis();
    BlockingQueue<TaskChange> heard = new LinkedBlockingQueue<>();
    TaskStore.Registration registration = await(store.listen(heard::add));
    try {
      String id = await(store.create(newTask(store, owner(), 60_000L, null, null, 0))).taskId();
      redis.stop();
      Thread.sleep(300);
      redis.restart();
      expect(heard, TaskChange.resync());
      await(store.complete(id, TaskStatus.COMPLETED, RESULT, null, null));
      expect(heard, new TaskChange(TaskChange.Kind.STATUS, id, TaskStatus.COMPLETED));
    } finally {
      await(registration.unregister());
    }
  }

  @Test
  void aKilledSubscriberConnectionIsReplaced() throws InterruptedException {
    BlockingQueue<TaskChange> heard = new LinkedBlockingQueue<>();
    TaskStore.Registration registration = await(store.listen(heard::add));
    try {
      String id = await(store.create(newTask(store, owner(), 60_000L, null, null, 0))).taskId();
      assertTrue((Long) REDIS.redis().call("CLIENT", "KILL", "TYPE", "pubsub") >= 1);
      expect(heard, TaskChange.resync());
      await(store.transition(id, ACTIVE, TaskStatus.CANCELLED, null));
      expect(heard, new TaskChange(TaskChange.Kind.STATUS, id, TaskStatus.CANCELLED));
    } finally {
      await(registration.unregister());
    }
  }

  @Test
  void aSubscriberConnectionThatStopsAnsweringIsReplaced() throws InterruptedException {
    BlockingQueue<TaskChange> heard = new LinkedBlockingQueue<>();
    TaskStore.Registration registration = await(store.listen(heard::add));
    try {
      String id = await(store.create(newTask(store, owner(), 60_000L, null, null, 0))).taskId();
      // Nothing closes the connection: only the unanswered PING tells.
      REDIS.redis().call("CLIENT", "PAUSE", "1500", "ALL");
      expect(heard, TaskChange.resync());
      await(store.transition(id, ACTIVE, TaskStatus.INPUT_REQUIRED, null));
      expect(heard, new TaskChange(TaskChange.Kind.STATUS, id, TaskStatus.INPUT_REQUIRED));
    } finally {
      await(registration.unregister());
    }
  }

  @Test
  void everyScriptRunsAfterTheScriptCacheIsFlushed() {
    TestRedis redis = REDIS.redis();
    String owner = owner();
    redis.call("SCRIPT", "FLUSH");
    TaskRecord task = await(store.create(new NewTask(store.newTaskId(owner), owner, 60_000L, null, null, 2)));
    String id = task.taskId();
    redis.call("SCRIPT", "FLUSH");
    assertTrue(await(store.requestInput(id, Map.of("k", new JsonObject()), null)).applied());
    redis.call("SCRIPT", "FLUSH");
    assertTrue(await(store.respond(id, Map.of("k", new JsonObject().put("v", 1)))).applied());
    redis.call("SCRIPT", "FLUSH");
    assertTrue(await(store.transition(id, ACTIVE, TaskStatus.WORKING, "again")).applied());
    redis.call("SCRIPT", "FLUSH");
    assertTrue(await(store.complete(id, TaskStatus.COMPLETED, RESULT, null, null)).applied());
    redis.call("SCRIPT", "FLUSH");
    assertEquals(1, await(store.list(owner, null, 10)).tasks().size());
    assertEquals(RESULT, await(store.get(id)).result());
  }

  private static void assertUnavailableWithinTimeout(String name, Supplier<Future<?>> call) {
    long start = System.nanoTime();
    Throwable failure = outcome(call.get());
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    assertNotNull(failure, name + " succeeded while Redis was away");
    TaskStoreException refused = assertInstanceOf(TaskStoreException.class, failure, name);
    assertEquals(TaskStoreException.Reason.UNAVAILABLE, refused.reason(), name);
    assertTrue(refused.getMessage().startsWith("task store unavailable"), refused.getMessage());
    assertTrue(elapsedMs < TIMEOUT_MS + 500, name + " failed after " + elapsedMs + " ms");
  }

  /** Waits for a change; others (of other tasks, or repeated) are skipped. */
  private static void expect(BlockingQueue<TaskChange> heard, TaskChange expected) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    TaskChange change;
    do {
      change = heard.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } while (change != null && !change.equals(expected));
    assertEquals(expected, change, "never heard it");
  }

  private static NewTask newTask(TaskStore store, String owner, Long ttlMs, Long pollIntervalMs,
      JsonObject metadata, int maxActivePerOwner) {
    return new NewTask(store.newTaskId(owner), owner, ttlMs, pollIntervalMs, metadata, maxActivePerOwner);
  }

  private static String owner() {
    return "owner-" + TaskIds.generate();
  }
}
