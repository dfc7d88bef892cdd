package io.mcpvertx.storage.redis;

import static io.mcpvertx.storage.redis.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.Principal;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redis frozen (SIGSTOP) for two seconds while clients create tasks on two instances, on both task wires: creates
 * time out and their clients are told the task was not created, while Redis keeps the creates queued and runs them
 * once it is thawed. Afterwards the store holds exactly the tasks whose clients were told they exist: every
 * acknowledged task is there and settles, and no refused one is (no "ghost" working without a handler and counting
 * against its owner's limit). Needs a private Redis.
 */
class NoGhostTasksAfterRedisStallTest {

  @RegisterExtension
  static final RedisServerExtension REDIS = new RedisServerExtension();

  private static final long TIMEOUT_MS = 500;
  private static final int CLIENTS_PER_WIRE_AND_INSTANCE = 3;

  private static TwoServers servers;

  @BeforeAll
  static void start() {
    TestRedis redis = REDIS.redis();
    RedisStoreOptions options = new RedisStoreOptions().setConnectionString(redis.url())
        .setKeyPrefix(redis.keyPrefix()).setReconnectDelayMs(50).setPingIntervalMs(200).setMaxPoolSize(8);
    warmUp(options);
    // A small limit, so that ghosts would show as refusals too.
    servers = new TwoServers(options.setCommandTimeoutMs(TIMEOUT_MS), new TaskOptions().setMaxActivePerOwner(20));
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
    if (servers != null) {
      servers.close();
    }
  }

  @BeforeEach
  void needsAPrivateRedis() {
    REDIS.redis().assumePrivate();
  }

  @Test
  void afterAStallUnderLoadTheStoreHoldsExactlyTheAcknowledgedTasks() throws InterruptedException {
    TestRedis redis = REDIS.redis();
    Principal alice = TwoServers.principal("alice-" + System.nanoTime());
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    AtomicInteger refused = new AtomicInteger();
    // A create that ran late counts against the limit until it is undone (moments after Redis answers again).
    AtomicInteger atLimit = new AtomicInteger();
    Map<String, AtomicInteger> otherErrors = new ConcurrentHashMap<>();
    AtomicBoolean running = new AtomicBoolean(true);
    List<Future<Void>> loops = new ArrayList<>();
    for (TwoServers.Instance instance : List.of(servers.a, servers.b)) {
      for (int i = 0; i < CLIENTS_PER_WIRE_AND_INSTANCE; i++) {
        McpTestClient session = instance.session(alice);
        loops.add(loop(running, () -> session.request("tools/call", quickTask())
            .map(response -> count(response, acknowledged, refused, atLimit, otherErrors))));
        loops.add(loop(running, () -> instance.stateless("tools/call", quick(), alice)
            .map(response -> count(response, acknowledged, refused, atLimit, otherErrors))));
      }
    }
    Thread.sleep(1_000);
    redis.pause();
    try {
      Thread.sleep(2_000);
    } finally {
      redis.resume();
    }
    Thread.sleep(1_000);
    running.set(false);
    loops.forEach(Futures::await);

    // Every acknowledged task is there and settles; nothing else is (the undoing may take a retry or two).
    eventually(() -> {
      Map<String, String> stored = storedTasks(redis, alice);
      return stored.keySet().equals(acknowledged) && stored.values().stream().allMatch("completed"::equals);
    });
    Map<String, String> stored = storedTasks(redis, alice);
    long ghosts = stored.keySet().stream().filter(id -> !acknowledged.contains(id)).count();
    System.out.printf("Redis SIGSTOP 2 s under load: acknowledged %d, refused %d (store), %d (limit), ghost %d, "
        + "lost %d%n", acknowledged.size(), refused.get(), atLimit.get(), ghosts,
        acknowledged.stream().filter(id -> !stored.containsKey(id)).count());
    assertTrue(refused.get() > 0, "the stall refused no create; the test proved nothing");
    assertTrue(otherErrors.isEmpty(), "unexpected errors: " + otherErrors);
    assertEquals(0, ghosts);
    assertEquals(acknowledged, stored.keySet());
    // And the owner's limit counts nothing that is not running: twenty more tasks may run at once.
    List<String> gates = new ArrayList<>();
    McpTestClient onA = servers.a.session(alice);
    for (int i = 0; i < 20; i++) {
      String gate = "limit-" + i + "-" + System.nanoTime();
      JsonObject created = await(onA.call("tools/call", new JsonObject().put("name", "gated")
          .put("arguments", new JsonObject().put("gate", gate)).put("task", new JsonObject().put("ttl", 60_000))));
      assertTrue(created.containsKey("task"), created::encode);
      gates.add(gate);
    }
    gates.forEach(gate -> servers.fixtures.awaitStarted(gate).open("done"));
  }

  /** Sends one request after the other until told to stop. */
  private static Future<Void> loop(AtomicBoolean running, Supplier<Future<Void>> request) {
    Promise<Void> done = Promise.promise();
    next(running, request, done);
    return done.future();
  }

  private static void next(AtomicBoolean running, Supplier<Future<Void>> request, Promise<Void> done) {
    if (!running.get()) {
      done.complete();
      return;
    }
    request.get().onComplete(ar -> {
      if (ar.failed()) {
        done.fail(ar.cause());
      } else {
        next(running, request, done);
      }
    });
  }

  private static Void count(JsonObject response, Set<String> acknowledged, AtomicInteger refused,
      AtomicInteger atLimit, Map<String, AtomicInteger> otherErrors) {
    JsonObject error = response.getJsonObject("error");
    if (error == null) {
      JsonObject result = response.getJsonObject("result");
      String id = result.containsKey("task") ? result.getJsonObject("task").getString("taskId")
          : result.getString("taskId");
      acknowledged.add(id);
    } else if (error.getInteger("code") == -32603 && error.getString("message").startsWith("Task store unavailable")) {
      refused.incrementAndGet();
    } else if (error.getInteger("code") == -32005) {
      atLimit.incrementAndGet();
    } else {
      otherErrors.computeIfAbsent(error.encode(), k -> new AtomicInteger()).incrementAndGet();
    }
    return null;
  }

  /** The tasks Redis holds for the principal: id → status. */
  private static Map<String, String> storedTasks(TestRedis redis, Principal principal) {
    Map<String, String> tasks = new TreeMap<>();
    for (String key : redis.keys()) {
      if (key.contains(":t:") && key.contains("task:{")) {
        Object raw = redis.call("GET", key);
        if (raw != null) {
          JsonObject task = new JsonObject(raw.toString());
          if (task.getString("owner").contains(principal.subject())) {
            tasks.put(task.getString("id"), task.getString("status"));
          }
        }
      }
    }
    return tasks;
  }

  private static JsonObject quick() {
    return new JsonObject().put("name", "quick").put("arguments", new JsonObject());
  }

  private static JsonObject quickTask() {
    return quick().put("task", new JsonObject().put("ttl", 60_000));
  }

  private static void eventually(java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
  }
}
