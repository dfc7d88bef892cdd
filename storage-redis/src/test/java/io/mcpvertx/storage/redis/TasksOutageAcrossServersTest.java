package io.mcpvertx.storage.redis;

import static io.mcpvertx.storage.redis.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.Principal;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two server instances while their Redis is away: every request that needs the task store fails fast with a
 * JSON-RPC error saying so, everything else is served as usual, and once Redis is back tasks work again, across
 * instances, without restarting anything. Needs a private Redis, which these tests stop and pause.
 */
class TasksOutageAcrossServersTest {

  @RegisterExtension
  static final RedisServerExtension REDIS = new RedisServerExtension();

  private static final long TIMEOUT_MS = 500;
  /** What a failing call may take beyond the store's timeout: scheduling on a busy machine. */
  private static final long SLACK_MS = 1_000;

  private static TwoServers servers;

  @BeforeAll
  static void start() {
    TestRedis redis = REDIS.redis();
    RedisStoreOptions options = new RedisStoreOptions().setConnectionString(redis.url())
        .setKeyPrefix(redis.keyPrefix()).setReconnectDelayMs(50).setPingIntervalMs(200).setMaxPoolSize(8);
    warmUp(options);
    servers = new TwoServers(options.setCommandTimeoutMs(TIMEOUT_MS), new TaskOptions());
  }

  /** A cold JVM takes longer than the short timeout for its first connection (classes, handshake). */
  private static void warmUp(RedisStoreOptions options) {
    Vertx vertx = Vertx.vertx();
    RedisTaskStore store = RedisTaskStore.create(vertx, new RedisStoreOptions(options).setCommandTimeoutMs(10_000));
    await(store.get("warm-up"));
    await(store.close());
    await(vertx.close());
  }

  @AfterAll
  static void stop() {
    servers.close();
  }

  @BeforeEach
  void needsAPrivateRedis() {
    REDIS.redis().assumePrivate();
  }

  @Test
  void whileRedisIsDownTaskRequestsFailFastTheRestIsServedAndAfterwardsTasksWorkAgain() {
    TestRedis redis = REDIS.redis();
    Principal alice = TwoServers.principal("alice-" + System.nanoTime());
    McpTestClient onA = servers.a.session(alice);
    McpTestClient onB = servers.b.session(alice);
    String before = task(await(onA.call("tools/call", quickTask()))).getString("taskId");
    eventually(() -> onB.call("tasks/get", taskId(before)), t -> "completed".equals(t.getString("status")));

    redis.stop();
    try {
      Map<String, Supplier<Future<JsonObject>>> needStore = new LinkedHashMap<>();
      needStore.put("tools/call as a task on A", () -> onA.request("tools/call", quickTask()));
      needStore.put("tasks/get on B", () -> onB.request("tasks/get", taskId(before)));
      needStore.put("tasks/result on B", () -> onB.request("tasks/result", taskId(before)));
      needStore.put("tasks/list on B", () -> onB.request("tasks/list", new JsonObject()));
      needStore.put("tasks/cancel on B", () -> onB.request("tasks/cancel", taskId(before)));
      needStore.put("extension tools/call on A", () -> servers.a.stateless("tools/call",
          new JsonObject().put("name", "quick").put("arguments", new JsonObject()), alice));
      needStore.put("extension tasks/get on B", () -> servers.b.stateless("tasks/get", taskId(before), alice));
      needStore.forEach(TasksOutageAcrossServersTest::assertStoreUnavailableWithinTimeout);

      // Nothing else needs Redis.
      for (McpTestClient client : new McpTestClient[] {onA, onB}) {
        assertEquals("still here", text(await(client.call("tools/call", echo()))));
        assertFalse(await(client.call("tools/list", new JsonObject())).getJsonArray("tools").isEmpty());
      }
      JsonObject direct = await(servers.b.stateless("tools/call", echo(), alice)).getJsonObject("result");
      assertEquals("still here", text(direct));
    } finally {
      redis.restart();
    }

    // Back without a restart: what was acknowledged is there, and tasks work across instances again.
    eventually(() -> onB.request("tasks/get", taskId(before)), response -> response.containsKey("result"));
    assertEquals("completed", await(onB.call("tasks/get", taskId(before))).getString("status"));
    String gate = "after-" + System.nanoTime();
    String after = task(await(onA.call("tools/call", new JsonObject().put("name", "gated")
        .put("arguments", new JsonObject().put("gate", gate)).put("task", new JsonObject().put("ttl", 60_000)))))
        .getString("taskId");
    Future<JsonObject> waiting = onB.call("tasks/result", taskId(after));
    servers.fixtures.awaitStarted(gate).open("after the outage");
    assertEquals("after the outage", text(await(waiting)));
    await(onA.close());
    await(onB.close());
  }

  @Test
  void whenRedisDoesNotAnswerTaskRequestsFailWithinTheTimeout() throws InterruptedException {
    Principal alice = TwoServers.principal("alice-" + System.nanoTime());
    McpTestClient onA = servers.a.session(alice);
    await(onA.call("tools/call", quickTask()));
    REDIS.redis().call("CLIENT", "PAUSE", "1200", "ALL");
    long start = System.nanoTime();
    assertStoreUnavailableWithinTimeout("tools/call as a task", () -> onA.request("tools/call", quickTask()));
    assertEquals("still here", text(await(onA.call("tools/call", echo()))));
    Thread.sleep(Math.max(0, 1_300 - (System.nanoTime() - start) / 1_000_000));
    eventually(() -> onA.request("tools/call", quickTask()), response -> response.containsKey("result"));
    await(onA.close());
  }

  private static void assertStoreUnavailableWithinTimeout(String name, Supplier<Future<JsonObject>> request) {
    long start = System.nanoTime();
    JsonObject response = await(request.get());
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    assertTrue(response.getValue("error") instanceof JsonObject, () -> name + " succeeded: " + response.encode());
    JsonObject error = response.getJsonObject("error");
    assertEquals(-32603, error.getInteger("code"), () -> name + ": " + error.encode());
    assertTrue(error.getString("message").startsWith("Task store unavailable"), () -> name + ": " + error.encode());
    assertTrue(elapsedMs < TIMEOUT_MS + SLACK_MS, name + " answered after " + elapsedMs + " ms");
  }

  private static JsonObject quickTask() {
    return new JsonObject().put("name", "quick").put("arguments", new JsonObject())
        .put("task", new JsonObject().put("ttl", 60_000));
  }

  private static JsonObject echo() {
    return new JsonObject().put("name", "echo").put("arguments", new JsonObject().put("text", "still here"));
  }

  private static JsonObject task(JsonObject created) {
    return created.getJsonObject("task");
  }

  private static JsonObject taskId(String id) {
    return new JsonObject().put("taskId", id);
  }

  private static String text(JsonObject toolResult) {
    return toolResult.getJsonArray("content").getJsonObject(0).getString("text");
  }

  /** Asks until the answer satisfies {@code done}, for at most ten seconds. */
  private static void eventually(Supplier<Future<JsonObject>> ask, java.util.function.Predicate<JsonObject> done) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    JsonObject answer;
    while (!done.test(answer = await(ask.get()))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("never happened; last answer " + answer.encode());
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
