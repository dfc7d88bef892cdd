package io.mcpvertx.storage.redis;

import static io.mcpvertx.storage.redis.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskIds;
import io.mcpvertx.spi.tasks.TaskPage;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.storage.redis.impl.RedisKeys;
import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** TTLs are Redis expiries on every key of a task; nothing sweeps, and nothing needs to. */
class RedisTaskStoreExpiryTest {

  @RegisterExtension
  static final RedisServerExtension REDIS = new RedisServerExtension();

  private static Vertx vertx;
  private static RedisTaskStore store;
  private static RedisKeys keys;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    TestRedis redis = REDIS.redis();
    store = RedisTaskStore.create(vertx, new RedisStoreOptions().setConnectionString(redis.url())
        .setKeyPrefix(redis.keyPrefix()));
    keys = new RedisKeys(redis.keyPrefix());
  }

  @AfterAll
  static void stop() {
    await(store.close());
    await(vertx.close());
  }

  @Test
  void theTaskAndItsOwnersIndexesExpireWithTheTask() {
    String owner = owner();
    TaskRecord task = await(store.create(new NewTask(store.newTaskId(owner), owner, 60_000L, null, null, 3)));
    long taskTtl = pttl(keys.task(task.taskId()));
    assertTrue(taskTtl > 55_000 && taskTtl <= 60_000, "task ttl " + taskTtl);
    for (String index : List.of(keys.ownerTasks(owner), keys.ownerExpiries(owner), keys.ownerActive(owner))) {
      long ttl = pttl(index);
      assertTrue(ttl >= taskTtl - 1_000 && ttl <= 60_000, index + " ttl " + ttl);
    }
    // A longer-lived task extends the indexes; a shorter one leaves them.
    await(store.create(new NewTask(store.newTaskId(owner), owner, 120_000L, null, null, 3)));
    await(store.create(new NewTask(store.newTaskId(owner), owner, 1_000L, null, null, 3)));
    assertTrue(pttl(keys.ownerTasks(owner)) > 115_000);
  }

  @Test
  void aTaskWithoutTtlKeepsItsKeysForever() {
    String owner = owner();
    await(store.create(new NewTask(store.newTaskId(owner), owner, 60_000L, null, null, 3)));
    TaskRecord task = await(store.create(new NewTask(store.newTaskId(owner), owner, null, null, null, 3)));
    await(store.create(new NewTask(store.newTaskId(owner), owner, 60_000L, null, null, 3)));
    for (String key : List.of(keys.task(task.taskId()), keys.ownerTasks(owner), keys.ownerExpiries(owner),
        keys.ownerActive(owner))) {
      assertEquals(-1L, pttl(key), key);
    }
  }

  @Test
  void anExpiredTaskLeavesNothingBehindOnceItsOwnerIsListed() {
    String owner = owner();
    TaskRecord lasting = await(store.create(new NewTask(store.newTaskId(owner), owner, 60_000L, null, null, 0)));
    String expiring = await(store.create(new NewTask(store.newTaskId(owner), owner, 200L, null, null, 0))).taskId();
    eventually(() -> (Long) REDIS.redis().call("EXISTS", keys.task(expiring)) == 0);
    assertNull(await(store.get(expiring)));
    assertEquals(2L, REDIS.redis().call("ZCARD", keys.ownerTasks(owner)), "an expired entry stays until met");
    TaskPage page = await(store.list(owner, null, 10));
    assertEquals(List.of(lasting.taskId()), page.tasks().stream().map(TaskRecord::taskId).toList());
    assertEquals(1L, REDIS.redis().call("ZCARD", keys.ownerTasks(owner)));
    assertEquals(1L, REDIS.redis().call("ZCARD", keys.ownerExpiries(owner)));
  }

  @Test
  void whenEveryTaskOfAnOwnerExpiredNoKeyOfTheOwnerRemains() {
    String owner = owner();
    String id = await(store.create(new NewTask(store.newTaskId(owner), owner, 200L, null, null, 2))).taskId();
    eventually(() -> (Long) REDIS.redis().call("EXISTS", keys.task(id), keys.ownerTasks(owner),
        keys.ownerExpiries(owner), keys.ownerActive(owner)) == 0);
  }

  @Test
  void aTaskKeyThatVanishedEarlyStopsCountingTowardTheLimit() {
    String owner = owner();
    String gone = await(store.create(new NewTask(store.newTaskId(owner), owner, 60_000L, null, null, 2))).taskId();
    await(store.create(new NewTask(store.newTaskId(owner), owner, 60_000L, null, null, 2)));
    // As eviction under memory pressure would.
    REDIS.redis().call("DEL", keys.task(gone));
    await(store.create(new NewTask(store.newTaskId(owner), owner, 60_000L, null, null, 2)));
    assertEquals(2L, REDIS.redis().call("ZCARD", keys.ownerActive(owner)));
  }

  @Test
  void anIdReusedAfterExpiryIsListedOnce() {
    String owner = owner();
    String id = store.newTaskId(owner);
    await(store.create(new NewTask(id, owner, 200L, null, null, 0)));
    eventually(() -> (Long) REDIS.redis().call("EXISTS", keys.task(id)) == 0);
    await(store.create(new NewTask(id, owner, null, null, null, 0)));
    TaskPage page = await(store.list(owner, null, 10));
    assertEquals(List.of(id), page.tasks().stream().map(TaskRecord::taskId).toList());
    assertNull(page.nextCursor());
  }

  @Test
  void aLongRunOfExpiredEntriesYieldsShortPagesThatGoOn() {
    String owner = owner();
    String last = null;
    for (int i = 0; i < 120; i++) {
      last = await(store.create(new NewTask(store.newTaskId(owner), owner, 300L, null, null, 0))).taskId();
    }
    String lasting = await(store.create(new NewTask(store.newTaskId(owner), owner, null, null, null, 0))).taskId();
    String lastExpiring = last;
    eventually(() -> (Long) REDIS.redis().call("EXISTS", keys.task(lastExpiring)) == 0);
    // A page of one looks at 68 entries at most: the first page is empty but goes on.
    TaskPage first = await(store.list(owner, null, 1));
    assertTrue(first.tasks().isEmpty());
    TaskPage second = await(store.list(owner, first.nextCursor(), 1));
    assertEquals(List.of(lasting), second.tasks().stream().map(TaskRecord::taskId).toList());
    assertNull(second.nextCursor());
    assertEquals(1L, REDIS.redis().call("ZCARD", keys.ownerTasks(owner)));
  }

  private static String owner() {
    return "owner-" + TaskIds.generate();
  }

  private static long pttl(String key) {
    return (Long) REDIS.redis().call("PTTL", key);
  }

  private static void eventually(java.util.function.BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out");
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
