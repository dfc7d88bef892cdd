package io.mcpvertx.storage.redis;

import static io.mcpvertx.storage.redis.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.Principal;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.storage.redis.impl.RedisKeys;
import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two server instances on one Redis: a task created through one is seen, cancelled, answered and finished through
 * the other, on both task wires. The handler always runs where the task was created (A); B reaches it only through
 * Redis: its scripts and its change announcements.
 */
class TasksAcrossServersTest {

  @RegisterExtension
  static final RedisServerExtension REDIS = new RedisServerExtension();

  private static TwoServers servers;
  private static RedisKeys keys;

  @BeforeAll
  static void start() {
    servers = new TwoServers(options(), new TaskOptions());
    keys = new RedisKeys(REDIS.redis().keyPrefix());
  }

  @AfterAll
  static void stop() {
    servers.close();
  }

  private static RedisStoreOptions options() {
    TestRedis redis = REDIS.redis();
    return new RedisStoreOptions().setConnectionString(redis.url()).setKeyPrefix(redis.keyPrefix())
        .setMaxPoolSize(8);
  }

  // ---- 2025-11-25 sessions ----

  @Test
  void aTaskCreatedThroughAIsSeenAndListedThroughB() {
    Principal alice = TwoServers.principal("alice-" + System.nanoTime());
    McpTestClient onA = servers.a.session(alice);
    McpTestClient onB = servers.b.session(alice);
    String gate = "seen-" + System.nanoTime();
    String id = createLegacy(onA, "gated", new JsonObject().put("gate", gate));
    assertEquals("A", servers.fixtures.awaitStarted(gate).instance);

    JsonObject got = await(onB.call("tasks/get", new JsonObject().put("taskId", id)));
    assertEquals("working", got.getString("status"));
    JsonArray listed = await(onB.call("tasks/list", new JsonObject())).getJsonArray("tasks");
    assertEquals(1, listed.size());
    assertEquals(id, listed.getJsonObject(0).getString("taskId"));

    // Another principal's session on B sees nothing of it.
    McpTestClient bob = servers.b.session(TwoServers.principal("bob-" + System.nanoTime()));
    assertEquals(-32602, await(bob.request("tasks/get", new JsonObject().put("taskId", id)))
        .getJsonObject("error").getInteger("code"));
    assertTrue(await(bob.call("tasks/list", new JsonObject())).getJsonArray("tasks").isEmpty());

    servers.fixtures.awaitStarted(gate).open("finished");
    closeAll(onA, onB, bob);
  }

  @Test
  void aTaskCancelledThroughBStopsItsHandlerOnA() throws Exception {
    Principal alice = TwoServers.principal("alice-" + System.nanoTime());
    McpTestClient onA = servers.a.session(alice);
    McpTestClient onB = servers.b.session(alice);
    String gate = "cancel-" + System.nanoTime();
    String id = createLegacy(onA, "gated", new JsonObject().put("gate", gate));
    TaskFixtures.Gate handler = servers.fixtures.awaitStarted(gate);

    JsonObject cancelled = await(onB.call("tasks/cancel", new JsonObject().put("taskId", id)));
    assertEquals("cancelled", cancelled.getString("status"));
    // The handler runs on A; only the store's announcement tells A.
    handler.cancelled.get(10, TimeUnit.SECONDS);
    assertEquals("cancelled", await(onA.call("tasks/get", new JsonObject().put("taskId", id))).getString("status"));
    assertEquals(-32602, await(onB.request("tasks/cancel", new JsonObject().put("taskId", id)))
        .getJsonObject("error").getInteger("code"), "a terminal task cannot be cancelled again");
    closeAll(onA, onB);
  }

  @Test
  void aResultIsFetchedThroughB() {
    Principal alice = TwoServers.principal("alice-" + System.nanoTime());
    McpTestClient onA = servers.a.session(alice);
    McpTestClient onB = servers.b.session(alice);
    String gate = "result-" + System.nanoTime();
    String id = createLegacy(onA, "gated", new JsonObject().put("gate", gate));
    servers.fixtures.awaitStarted(gate).open("made on A");
    eventually(() -> onB.call("tasks/get", new JsonObject().put("taskId", id)),
        task -> "completed".equals(task.getString("status")));

    JsonObject result = await(onB.call("tasks/result", new JsonObject().put("taskId", id)));
    assertEquals("made on A", result.getJsonArray("content").getJsonObject(0).getString("text"));
    assertEquals(id, result.getJsonObject("_meta").getJsonObject("io.modelcontextprotocol/related-task")
        .getString("taskId"));
    closeAll(onA, onB);
  }

  /**
   * Nothing polls: B's {@code tasks/result} re-reads the task only when the store announces a change, or when the
   * task's lifetime (a minute here) ends. So an answer within the test's patience came through pub/sub.
   */
  @Test
  void aTasksResultBlockedOnBWakesWhenACompletesTheTask() throws InterruptedException {
    Principal alice = TwoServers.principal("alice-" + System.nanoTime());
    McpTestClient onA = servers.a.session(alice);
    McpTestClient onB = servers.b.session(alice);
    String gate = "wake-" + System.nanoTime();
    String id = createLegacy(onA, "gated", new JsonObject().put("gate", gate), 60_000);
    Future<JsonObject> waiting = onB.call("tasks/result", new JsonObject().put("taskId", id));
    Thread.sleep(300);
    assertFalse(waiting.isComplete(), "tasks/result answered before the task finished: " + waiting);

    servers.fixtures.awaitStarted(gate).open("woken");
    JsonObject result = await(waiting);
    assertEquals("woken", result.getJsonArray("content").getJsonObject(0).getString("text"));
    closeAll(onA, onB);
  }

  // ---- the tasks extension, 2026-07-28 ----

  @Test
  void overTheExtensionATaskCreatedOnAIsReadAnsweredAndFinishedThroughB() {
    Principal alice = TwoServers.principal("alice-" + System.nanoTime());
    JsonObject created = result(servers.a.stateless("tools/call", new JsonObject().put("name", "ask")
        .put("arguments", new JsonObject()), alice));
    assertEquals("task", created.getString("resultType"));
    String id = created.getString("taskId");

    // The handler on A asked; B reads the question from Redis, and records the answer there.
    JsonObject asking = eventually(() -> servers.b.stateless("tasks/get", taskId(id), alice).map(this::result),
        task -> "input_required".equals(task.getString("status")));
    JsonObject question = asking.getJsonObject("inputRequests").getJsonObject("name");
    assertEquals("elicitation/create", question.getString("method"));
    result(servers.b.stateless("tasks/update", taskId(id).put("inputResponses", new JsonObject().put("name",
        new JsonObject().put("action", "accept").put("content", new JsonObject().put("name", "Bob")))), alice));

    JsonObject done = eventually(() -> servers.b.stateless("tasks/get", taskId(id), alice).map(this::result),
        task -> "completed".equals(task.getString("status")));
    assertEquals("Hello, Bob (from A)", done.getJsonObject("result").getJsonArray("content").getJsonObject(0)
        .getString("text"));
  }

  @Test
  void overTheExtensionATaskCreatedOnAIsCancelledThroughB() throws Exception {
    Principal alice = TwoServers.principal("alice-" + System.nanoTime());
    String gate = "x-cancel-" + System.nanoTime();
    JsonObject created = result(servers.a.stateless("tools/call", new JsonObject().put("name", "gated")
        .put("arguments", new JsonObject().put("gate", gate)), alice));
    String id = created.getString("taskId");
    TaskFixtures.Gate handler = servers.fixtures.awaitStarted(gate);
    assertEquals("A", handler.instance);
    assertEquals("working", result(servers.b.stateless("tasks/get", taskId(id), alice)).getString("status"));

    result(servers.b.stateless("tasks/cancel", taskId(id), alice));
    handler.cancelled.get(10, TimeUnit.SECONDS);
    assertEquals("cancelled", result(servers.b.stateless("tasks/get", taskId(id), alice)).getString("status"));
    // Someone else's id reads as unknown on either instance.
    Principal bob = TwoServers.principal("bob-" + System.nanoTime());
    assertEquals(-32602, await(servers.a.stateless("tasks/get", taskId(id), bob)).getJsonObject("error")
        .getInteger("code"));
  }

  /**
   * A 2026-07-28 listen stream held by B follows a task that runs on A: B learns of A's changes only through the
   * store's announcements on Redis.
   */
  @Test
  void aListenStreamOnBFollowsATaskRunningOnA() {
    Principal alice = TwoServers.principal("alice-" + System.nanoTime());
    String gate = "listen-" + System.nanoTime();
    String id = result(servers.a.stateless("tools/call", new JsonObject().put("name", "gated")
        .put("arguments", new JsonObject().put("gate", gate)), alice)).getString("taskId");
    TaskFixtures.Gate handler = servers.fixtures.awaitStarted(gate);
    assertEquals("A", handler.instance);
    StatelessTestClient.Listening stream = await(servers.b.listen(new JsonObject()
        .put("taskIds", new JsonArray().add(id)), alice));
    try {
      JsonObject working = await(stream.frame(f -> "notifications/tasks".equals(f.getString("method"))));
      assertEquals("working", working.getJsonObject("params").getString("status"));
      assertEquals("notifications/subscriptions/acknowledged", await(stream.frame(0)).getString("method"));

      handler.open("finished on A");
      JsonObject completed = await(stream.frame(f -> "notifications/tasks".equals(f.getString("method"))
          && "completed".equals(f.getJsonObject("params").getString("status"))));
      assertEquals(id, completed.getJsonObject("params").getString("taskId"));
    } finally {
      stream.close();
    }
  }

  // ---- lifetimes ----

  /** Short task lifetimes, through the engine: the task is gone everywhere, and whoever waits on it is told. */
  @Test
  void anExpiredTaskIsGoneEverywhereAndItsWaitersAreTold() throws Exception {
    try (TwoServers shortLived = new TwoServers(options(), new TaskOptions().setDefaultTtlMs(400)
        .setMaxTtlMs(400))) {
      Principal alice = TwoServers.principal("alice-" + System.nanoTime());
      McpTestClient onA = shortLived.a.session(alice);
      McpTestClient onB = shortLived.b.session(alice);
      String gate = "expire-" + System.nanoTime();
      JsonObject created = await(onA.call("tools/call", new JsonObject().put("name", "gated")
          .put("arguments", new JsonObject().put("gate", gate)).put("task", new JsonObject().put("ttl", 60_000))));
      JsonObject task = created.getJsonObject("task");
      assertEquals(400, task.getLong("ttl"), "the lifetime asked for is cut to the maximum");
      String id = task.getString("taskId");
      TaskFixtures.Gate handler = shortLived.fixtures.awaitStarted(gate);
      Future<JsonObject> waiting = onB.request("tasks/result", new JsonObject().put("taskId", id));

      JsonObject error = await(waiting).getJsonObject("error");
      assertEquals(-32602, error.getInteger("code"), error::encode);
      assertEquals("The task expired", handler.cancelled.get(10, TimeUnit.SECONDS));
      assertEquals(0L, REDIS.redis().call("EXISTS", keys.task(id)));
      assertEquals(-32602, await(onB.request("tasks/get", new JsonObject().put("taskId", id)))
          .getJsonObject("error").getInteger("code"));
      assertTrue(await(onB.call("tasks/list", new JsonObject())).getJsonArray("tasks").isEmpty());

      // The extension's tasks get the default lifetime.
      String otherGate = "x-expire-" + System.nanoTime();
      JsonObject extension = result(shortLived.a.stateless("tools/call", new JsonObject().put("name", "gated")
          .put("arguments", new JsonObject().put("gate", otherGate)), alice));
      assertEquals(400, extension.getLong("ttlMs"));
      shortLived.fixtures.awaitStarted(otherGate).cancelled.get(10, TimeUnit.SECONDS);
      eventually(() -> shortLived.b.stateless("tasks/get", taskId(extension.getString("taskId")), alice),
          response -> response.containsKey("error") && response.getJsonObject("error").getInteger("code") == -32602);
      closeAll(onA, onB);
    }
  }

  // ---- helpers ----

  private static String createLegacy(McpTestClient client, String tool, JsonObject arguments) {
    return createLegacy(client, tool, arguments, 60_000);
  }

  private static String createLegacy(McpTestClient client, String tool, JsonObject arguments, long ttlMs) {
    JsonObject created = await(client.call("tools/call", new JsonObject().put("name", tool)
        .put("arguments", arguments).put("task", new JsonObject().put("ttl", ttlMs))));
    JsonObject task = created.getJsonObject("task");
    assertEquals("working", task.getString("status"));
    return task.getString("taskId");
  }

  private static JsonObject taskId(String id) {
    return new JsonObject().put("taskId", id);
  }

  private JsonObject result(Future<JsonObject> response) {
    return result(await(response));
  }

  private JsonObject result(JsonObject response) {
    assertTrue(response.getValue("result") instanceof JsonObject, () -> "expected a result: " + response.encode());
    JsonObject result = response.getJsonObject("result");
    assertNotEquals("input_required", result.getString("resultType"), result::encode);
    return result;
  }

  /** Asks until the answer satisfies {@code done}, for at most ten seconds. */
  private static JsonObject eventually(Supplier<Future<JsonObject>> ask, Predicate<JsonObject> done) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      JsonObject answer = await(ask.get());
      if (done.test(answer)) {
        return answer;
      }
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

  /**
   * Closes the sessions, checking first that B's (the second) was sent nothing its revision's schema forbids.
   * Sessions that made a task-augmented tools/call are not checked: the test client still reads its
   * CreateTaskResult as a CallToolResult.
   */
  private static void closeAll(McpTestClient onA, McpTestClient onB, McpTestClient... others) {
    assertTrue(onB.violations().isEmpty(), () -> "schema violations: " + onB.violations());
    await(onA.close());
    await(onB.close());
    for (McpTestClient client : others) {
      await(client.close());
    }
  }
}
