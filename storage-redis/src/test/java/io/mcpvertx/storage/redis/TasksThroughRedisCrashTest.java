package io.mcpvertx.storage.redis;

import static io.mcpvertx.storage.redis.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.Principal;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.mcpvertx.testing.LogCapture;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.event.Level;

/**
 * Redis killed (SIGKILL) and restarted while clients of two server instances keep creating tasks, on both wires:
 * no task whose creation a client was told of is lost, every creation that failed failed fast with a clear error,
 * and nothing hung.
 *
 * <p>An acknowledged task survives a crash of Redis only if Redis wrote it to disk before answering: this Redis
 * runs with {@code appendfsync always}, as a deployment that must not lose tasks configures it (or it has the
 * store {@linkplain RedisStoreOptions#setWaitReplicas wait for replicas}).
 */
class TasksThroughRedisCrashTest {

  @RegisterExtension
  static final RedisServerExtension REDIS = RedisServerExtension.withServerArgs("--appendfsync", "always");

  private static final long TIMEOUT_MS = 500;
  /** A request that takes longer than this has hung, as far as this test is concerned. */
  private static final long HUNG_MS = 5_000;
  private static final int SESSIONS_PER_INSTANCE = 3;
  private static final int STATELESS_PER_INSTANCE = 2;
  private static final long LOAD_MS = 3_500;
  private static final long KILL_AT_MS = 1_000;
  private static final long DOWN_MS = 1_000;

  /** The audit log of hundreds of tasks is not what this test is about. */
  private static final String AUDIT = "io.mcpvertx.tasks.audit";

  private static TwoServers servers;

  @BeforeAll
  static void start() {
    TestRedis redis = REDIS.redis();
    redis.assumePrivate();
    assertEquals(List.of("appendfsync", "always"), redis.call("CONFIG", "GET", "appendfsync"));
    LogCapture.setLevel(AUDIT, Level.WARN);
    RedisStoreOptions options = new RedisStoreOptions().setConnectionString(redis.url())
        .setKeyPrefix(redis.keyPrefix()).setReconnectDelayMs(50).setPingIntervalMs(200).setMaxPoolSize(8);
    Vertx vertx = Vertx.vertx();
    RedisTaskStore warmUp = RedisTaskStore.create(vertx, new RedisStoreOptions(options).setCommandTimeoutMs(10_000));
    await(warmUp.get("warm-up"));
    await(warmUp.close());
    await(vertx.close());
    servers = new TwoServers(options.setCommandTimeoutMs(TIMEOUT_MS),
        new TaskOptions().setMaxActivePerOwner(100_000));
  }

  @AfterAll
  static void stop() {
    if (servers != null) {
      servers.close();
    }
    LogCapture.setLevel(AUDIT, null);
  }

  /** One client creating tasks one after the other; {@code create} yields the task id or the error's JSON. */
  private record Client(Principal owner, Supplier<Future<JsonObject>> create) {
  }

  /** What the clients saw. */
  private static final class Tally {
    final Map<String, String> acknowledged = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();
    final AtomicInteger hung = new AtomicInteger();
    final AtomicLong slowestFailureMs = new AtomicLong();
  }

  @Test
  void noAcknowledgedTaskIsLostWhenRedisIsKilledUnderLoad() throws InterruptedException {
    TestRedis redis = REDIS.redis();
    List<Client> clients = new ArrayList<>();
    List<McpTestClient> sessions = new ArrayList<>();
    for (TwoServers.Instance instance : List.of(servers.a, servers.b)) {
      for (int i = 0; i < SESSIONS_PER_INSTANCE; i++) {
        Principal owner = TwoServers.principal("session-" + instance.name + i);
        McpTestClient session = instance.session(owner);
        sessions.add(session);
        JsonObject call = new JsonObject().put("name", "quick").put("arguments", new JsonObject().put("delayMs", 5))
            .put("task", new JsonObject().put("ttl", 600_000));
        clients.add(new Client(owner, () -> session.request("tools/call", call)
            .map(response -> response.containsKey("result")
                ? new JsonObject().put("taskId", response.getJsonObject("result").getJsonObject("task")
                    .getString("taskId"))
                : response.getJsonObject("error"))));
      }
      for (int i = 0; i < STATELESS_PER_INSTANCE; i++) {
        Principal owner = TwoServers.principal("stateless-" + instance.name + i);
        JsonObject call = new JsonObject().put("name", "quick").put("arguments", new JsonObject().put("delayMs", 5));
        clients.add(new Client(owner, () -> instance.stateless("tools/call", call, owner)
            .map(response -> response.containsKey("result")
                ? new JsonObject().put("taskId", response.getJsonObject("result").getString("taskId"))
                : response.getJsonObject("error"))));
      }
    }

    Tally tally = new Tally();
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LOAD_MS);
    List<Future<Void>> running = clients.stream().map(client -> run(client, end, tally)).toList();
    Thread.sleep(KILL_AT_MS);
    redis.kill();
    int beforeKill = tally.acknowledged.size();
    Thread.sleep(DOWN_MS);
    int whileDown = tally.acknowledged.size() - beforeKill;
    redis.restart();
    await(Future.all(running));

    // After recovery, every task a client was told of is there, under its owner; those whose handler finished
    // while Redis was away get their outcome stored once it is back.
    int lost = 0;
    for (Map.Entry<String, String> task : tally.acknowledged.entrySet()) {
      TaskRecord stored = await(servers.b.store.get(task.getKey()));
      if (stored == null || !stored.owner().equals(task.getValue())) {
        lost++;
      }
    }
    int unsettledAtFirst = unsettled(tally.acknowledged.keySet());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    int unsettled = unsettledAtFirst;
    while (unsettled > 0 && System.nanoTime() < deadline) {
      Thread.sleep(200);
      unsettled = unsettled(tally.acknowledged.keySet());
    }
    int failed = tally.failures.values().stream().mapToInt(AtomicInteger::get).sum();
    System.out.printf("Redis killed under load: %d clients; %d tasks acknowledged: %d before the kill, %d while "
        + "Redis was down (answers already under way when it died), %d after the restart; %d creations failed %s, "
        + "the slowest after %d ms; %d hung; %d lost; %d still working right after the load, %d in the end%n",
        clients.size(), tally.acknowledged.size(), beforeKill, whileDown,
        tally.acknowledged.size() - beforeKill - whileDown, failed, tally.failures, tally.slowestFailureMs.get(),
        tally.hung.get(), lost, unsettledAtFirst, unsettled);

    assertEquals(0, lost, "acknowledged tasks lost");
    assertEquals(0, unsettled, "acknowledged tasks whose outcome was never stored");
    assertEquals(0, tally.hung.get(), "requests that hung");
    assertTrue(beforeKill > 0, "no load before the kill");
    assertTrue(failed > 0, "the outage went unnoticed");
    assertEquals(Set.of("-32603 Task store unavailable"), tally.failures.keySet(), "unclear failures");
    assertTrue(tally.slowestFailureMs.get() < TIMEOUT_MS + 1_000, "a failure took "
        + tally.slowestFailureMs.get() + " ms");
    for (McpTestClient session : sessions) {
      await(session.close());
    }
  }

  /** How many of these tasks are not terminal (yet). */
  private static int unsettled(Collection<String> ids) {
    int count = 0;
    for (String id : ids) {
      TaskRecord task = await(servers.b.store.get(id));
      if (task != null && !task.status().isTerminal()) {
        count++;
      }
    }
    return count;
  }

  /** Creates tasks until {@code end}; after a failure, pauses a little, as a client backing off would. */
  private static Future<Void> run(Client client, long end, Tally tally) {
    Promise<Void> done = Promise.promise();
    next(client, end, tally, done);
    return done.future();
  }

  private static void next(Client client, long end, Tally tally, Promise<Void> done) {
    if (System.nanoTime() > end) {
      done.complete();
      return;
    }
    long start = System.nanoTime();
    Vertx vertx = servers.a.vertx;
    client.create().get().timeout(HUNG_MS, TimeUnit.MILLISECONDS).onComplete(ar -> {
      long elapsedMs = (System.nanoTime() - start) / 1_000_000;
      if (ar.failed()) {
        tally.hung.incrementAndGet();
        next(client, end, tally, done);
      } else if (ar.result().containsKey("taskId")) {
        tally.acknowledged.put(ar.result().getString("taskId"), client.owner().key());
        next(client, end, tally, done);
      } else {
        JsonObject error = ar.result();
        String message = error.getString("message", "");
        String kind = error.getInteger("code") + " "
            + (message.startsWith("Task store unavailable") ? "Task store unavailable" : message);
        tally.failures.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
        tally.slowestFailureMs.accumulateAndGet(elapsedMs, Math::max);
        vertx.setTimer(50, t -> next(client, end, tally, done));
      }
    });
  }
}
