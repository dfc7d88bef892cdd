package io.mcpvertx.storage.redis;

import static io.mcpvertx.storage.redis.Futures.await;
import static io.mcpvertx.storage.redis.Futures.awaitFailure;
import static io.mcpvertx.storage.redis.Futures.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskIds;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.TaskStoreException;
import io.mcpvertx.spi.tasks.TaskUpdate;
import io.mcpvertx.storage.redis.impl.RedisKeys;
import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two store instances on separate clients, as two server instances would have: the scripts keep them consistent
 * and the announcements of one wake the listeners of the other.
 */
class RedisTaskStoreAcrossInstancesTest {

  @RegisterExtension
  static final RedisServerExtension REDIS = new RedisServerExtension();

  private static Vertx vertx;
  private static RedisTaskStore first;
  private static RedisTaskStore second;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    first = RedisTaskStore.create(vertx, options());
    second = RedisTaskStore.create(vertx, options());
  }

  @AfterAll
  static void stop() {
    await(first.close());
    await(second.close());
    await(vertx.close());
  }

  private static RedisStoreOptions options() {
    TestRedis redis = REDIS.redis();
    return new RedisStoreOptions().setConnectionString(redis.url()).setKeyPrefix(redis.keyPrefix())
        .setMaxPoolSize(8);
  }

  @Test
  void concurrentCreatesOnTwoInstancesStayWithinTheOwnersLimit() {
    String owner = "owner-" + TaskIds.generate();
    List<Future<TaskRecord>> creates = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      TaskStore store = i % 2 == 0 ? first : second;
      NewTask task = new NewTask(store.newTaskId(owner), owner, 60_000L, null, null, 5);
      creates.add(on(vertx.getOrCreateContext(), () -> store.create(task)));
    }
    int created = 0;
    for (Future<TaskRecord> create : creates) {
      Throwable failure = outcome(create);
      if (failure == null) {
        created++;
      } else {
        assertEquals(TaskStoreException.Reason.LIMIT_EXCEEDED,
            assertInstanceOf(TaskStoreException.class, failure).reason());
      }
    }
    assertEquals(5, created);
    assertEquals(5L, REDIS.redis().call("ZCARD", new RedisKeys(REDIS.redis().keyPrefix()).ownerActive(owner)));
  }

  @Test
  void concurrentAnswersAndCancellationsOnTwoInstancesSettleOnOneOutcome() {
    String owner = "owner-" + TaskIds.generate();
    for (int i = 0; i < 30; i++) {
      String id = await(first.create(new NewTask(first.newTaskId(owner), owner, 60_000L, null, null, 0))).taskId();
      await(first.requestInput(id, Map.of("k", new JsonObject().put("method", "elicitation/create")), null));
      Future<TaskUpdate> a = on(vertx.getOrCreateContext(),
          () -> first.respond(id, Map.of("k", new JsonObject().put("v", "a"))));
      Future<TaskUpdate> b = on(vertx.getOrCreateContext(),
          () -> second.respond(id, Map.of("k", new JsonObject().put("v", "b"))));
      Future<TaskUpdate> cancel = on(vertx.getOrCreateContext(),
          () -> second.transition(id, EnumSet.of(TaskStatus.WORKING, TaskStatus.INPUT_REQUIRED),
              TaskStatus.CANCELLED, null));
      boolean aTook = await(a).applied();
      boolean bTook = await(b).applied();
      assertTrue(await(cancel).applied(), "a task that is not terminal can always be cancelled");
      assertTrue(!(aTook && bTook), "a key is answered once, round " + i);
      TaskRecord settled = await(second.get(id));
      assertEquals(TaskStatus.CANCELLED, settled.status());
      assertTrue(settled.inputRequests().isEmpty());
      assertEquals(aTook || bTook ? 1 : 0, settled.inputResponses().size());
    }
  }

  @Test
  void aChangeOnOneInstanceWakesAListenerOnTheOther() throws InterruptedException {
    BlockingQueue<TaskChange> heard = new LinkedBlockingQueue<>();
    TaskStore.Registration registration = await(first.listen(heard::add));
    String id = await(second.create(anyOwnersTask(second, 60_000L, null,
        null, 0))).taskId();
    assertEquals(TaskStatus.WORKING, await(first.get(id)).status(), "created means readable everywhere");
    await(second.complete(id, TaskStatus.COMPLETED, new JsonObject().put("content", List.of()), null, null));
    TaskChange expected = new TaskChange(TaskChange.Kind.STATUS, id, TaskStatus.COMPLETED);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    TaskChange change;
    do {
      change = heard.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } while (change != null && !change.equals(expected));
    assertEquals(expected, change);
    await(registration.unregister());
  }

  @Test
  void aCreateWaitsUntilAReplicaHasTheTask() {
    TestRedis redis = REDIS.redis();
    redis.assumePrivate();
    try (TestRedis replica = redis.startReplica()) {
      RedisTaskStore store = RedisTaskStore.create(vertx, options().setWaitReplicas(1).setWaitTimeoutMs(2_000));
      try {
        TaskRecord task = await(store.create(anyOwnersTask(store,
            60_000L, null, null, 0)));
        String key = new RedisKeys(redis.keyPrefix()).task(task.taskId());
        assertTrue(String.valueOf(replica.call("GET", key)).contains("\"status\":\"working\""),
            "on the replica when create succeeded");
        REDIS.redis().call("SCRIPT", "FLUSH");
        await(store.create(anyOwnersTask(store, null, null, null, 0)));
      } finally {
        await(store.close());
      }
    }
  }

  @Test
  void aCreateNoReplicaAcknowledgedFailsAsUnavailableInBoundedTime() {
    REDIS.redis().assumePrivate();
    RedisTaskStore store = RedisTaskStore.create(vertx,
        options().setWaitReplicas(1).setWaitTimeoutMs(200).setCommandTimeoutMs(1_000));
    try {
      long start = System.nanoTime();
      Throwable failure = awaitFailure(store.create(anyOwnersTask(store,
          60_000L, null, null, 0)));
      long elapsedMs = (System.nanoTime() - start) / 1_000_000;
      TaskStoreException refused = assertInstanceOf(TaskStoreException.class, failure);
      assertEquals(TaskStoreException.Reason.UNAVAILABLE, refused.reason());
      assertTrue(refused.getMessage().contains("0 of 1 replicas"), refused.getMessage());
      assertTrue(elapsedMs < 1_200, "failed after " + elapsedMs + " ms");
    } finally {
      await(store.close());
    }
  }

  private static <T> Future<T> on(Context context, Supplier<Future<T>> call) {
    Promise<T> promise = Promise.promise();
    context.runOnContext(v -> call.get().onComplete(promise));
    return promise.future();
  }

  /** A task of an owner no other test uses. */
  private static NewTask anyOwnersTask(TaskStore store, Long ttlMs, Long pollIntervalMs, JsonObject metadata,
      int maxActivePerOwner) {
    String owner = "owner-" + TaskIds.generate();
    return new NewTask(store.newTaskId(owner), owner, ttlMs, pollIntervalMs, metadata, maxActivePerOwner);
  }
}
