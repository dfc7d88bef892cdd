package io.mcpvertx.storage.redis;

import static io.mcpvertx.storage.redis.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.Principal;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.storage.redis.impl.RedisKeys;
import io.mcpvertx.storage.redis.testing.RedisClusterExtension;
import io.mcpvertx.storage.redis.testing.TestRedisCluster;
import io.mcpvertx.testing.LogCapture;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.RedisClientType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.event.Level;

/**
 * The master holding the tasks killed (SIGKILL) while clients of two server instances keep creating tasks through
 * a Redis Cluster of three masters and three replicas; its replica is promoted, and our servers are not restarted.
 * The store waits for one replica to have each new task before it acknowledges it, so no acknowledged task is
 * lost; every creation that failed during the promotion failed fast with a clear error, nothing hung, and
 * creations succeed again once the promoted master has a replica again (the killed one, restarted).
 *
 * <p>{@link TasksThroughClusterFailoverWithoutWaitIT} runs the same without waiting for replicas: creations succeed
 * again as soon as the replica is promoted, and a task the master acknowledged but had not yet sent to its replica
 * is lost.
 */
class TasksThroughClusterFailoverIT {

  /** A master unreachable for this long is replaced by its replica. */
  private static final long NODE_TIMEOUT_MS = 1_000;

  @RegisterExtension
  static final RedisClusterExtension CLUSTER = new RedisClusterExtension(NODE_TIMEOUT_MS);

  private static final long TIMEOUT_MS = 500;
  static final long HUNG_MS = 5_000;
  private static final int CLIENTS_PER_INSTANCE = 4;
  private static final long KILL_AT_MS = 1_500;
  /** The killed master is started again this long after the kill. */
  private static final long RESTART_AFTER_MS = 4_000;
  /** Load goes on this long after the kill: the promotion, the old master's return, and some time after. */
  private static final long AFTER_KILL_MS = 9_000;

  private static final String AUDIT = "io.mcpvertx.tasks.audit";
  private static final String ERRORS = "io.mcpvertx.server.impl.tasks.TaskErrors";

  static TwoServers servers;

  @BeforeAll
  static void start() {
    servers = servers(1);
  }

  static TwoServers servers(int waitReplicas) {
    TestRedisCluster cluster = CLUSTER.cluster();
    LogCapture.setLevel(AUDIT, Level.WARN);
    LogCapture.setLevel(ERRORS, Level.ERROR);
    RedisStoreOptions options = new RedisStoreOptions().setType(RedisClientType.CLUSTER)
        .setConnectionStrings(cluster.urls()).setKeyPrefix(cluster.keyPrefix()).setReconnectDelayMs(50)
        .setPingIntervalMs(200).setMaxPoolSize(8).setCommandTimeoutMs(TIMEOUT_MS)
        .setWaitReplicas(waitReplicas).setWaitTimeoutMs(TIMEOUT_MS);
    return new TwoServers(options, new TaskOptions().setMaxActivePerOwner(100_000));
  }

  @AfterAll
  static void stop() {
    if (servers != null) {
      servers.close();
      servers = null;
    }
    LogCapture.setLevel(AUDIT, null);
    LogCapture.setLevel(ERRORS, null);
  }

  /** What the clients saw: each acknowledged task with its owner, and when it was acknowledged. */
  static final class Tally {
    final Map<String, String> acknowledged = new ConcurrentHashMap<>();
    final AtomicInteger acknowledgedAfterKill = new AtomicInteger();
    final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();
    final Map<String, String> messages = new ConcurrentHashMap<>();
    final AtomicInteger hung = new AtomicInteger();
    final AtomicLong slowestFailureMs = new AtomicLong();
    volatile boolean killed;
    int lost;
  }

  @Test
  void noAcknowledgedTaskIsLostWhenTheTasksMasterFailsOver() throws InterruptedException {
    Tally tally = failOverUnderLoad(true);
    assertEquals(0, tally.lost, "acknowledged tasks lost");
  }

  /**
   * Kills the master of one client's tasks under load (and restarts it after a while when the store waits for a
   * replica, which the promoted master lacks until then), and checks what every variant must show: no request
   * hung, every failure was fast and clear, and creations succeeded after the kill.
   */
  static Tally failOverUnderLoad(boolean waitsForReplicas) throws InterruptedException {
    TestRedisCluster cluster = CLUSTER.cluster();
    Tally tally = new Tally();
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_AT_MS + AFTER_KILL_MS);
    List<Future<Void>> running = new ArrayList<>();
    for (TwoServers.Instance instance : List.of(servers.a, servers.b)) {
      for (int i = 0; i < CLIENTS_PER_INSTANCE; i++) {
        running.add(run(instance, TwoServers.principal("client-" + instance.name + i), end, tally));
      }
    }
    Thread.sleep(KILL_AT_MS);
    int beforeKill = tally.acknowledged.size();
    // Tasks spread over the masters by owner: the one killed holds the tasks of the first client acknowledged.
    String someTask = tally.acknowledged.keySet().stream().findFirst().orElseThrow(
        () -> new AssertionError("no load before the kill"));
    int master = cluster.firstMasterOf(new RedisKeys(cluster.keyPrefix()).task(someTask));
    cluster.kill(master);
    tally.killed = true;
    // The promoted replica has no replica of its own, so creations wait in vain for one until the old master is
    // back, as its replica: an operator (or a supervisor) restarts it; our servers are left alone.
    if (waitsForReplicas) {
      Thread.sleep(RESTART_AFTER_MS);
      cluster.restart(master);
    }
    // The clients run until AFTER_KILL_MS after the kill, and their last call may take up to its hang bound.
    await(Future.all(running), AFTER_KILL_MS + HUNG_MS + 5_000);
    cluster.awaitHealthy();

    int lost = 0;
    for (Map.Entry<String, String> task : tally.acknowledged.entrySet()) {
      TaskRecord stored = await(servers.b.store.get(task.getKey()));
      if (stored == null || !stored.owner().equals(task.getValue())) {
        lost++;
      }
    }
    tally.lost = lost;
    long completed = tally.acknowledged.keySet().stream()
        .map(id -> await(servers.a.store.get(id)))
        .filter(task -> task != null && task.status().isTerminal()).count();
    int failed = tally.failures.values().stream().mapToInt(AtomicInteger::get).sum();
    System.out.printf("Tasks master killed under load (waiting for replicas: %s): %d tasks acknowledged:"
        + " %d before the kill, %d after; %d settled; %d creations failed %s, the slowest after %d ms; %d hung; "
        + "%d lost; the promoted node is a master: %s; failures: %s%n", waitsForReplicas,
        tally.acknowledged.size(), beforeKill, tally.acknowledgedAfterKill.get(), completed, failed, tally.failures,
        tally.slowestFailureMs.get(), tally.hung.get(), lost, cluster.masters().contains(cluster.replicaOf(master)),
        tally.messages.values());

    assertEquals(0, tally.hung.get(), "requests that hung");
    assertTrue(beforeKill > 0, "no load before the kill");
    assertTrue(failed > 0, "the failover went unnoticed");
    assertEquals(Set.of("-32603 Task store unavailable"), tally.failures.keySet(), "unclear failures");
    assertTrue(tally.slowestFailureMs.get() < 2 * TIMEOUT_MS + 1_000, "a failure took "
        + tally.slowestFailureMs.get() + " ms");
    assertTrue(cluster.masters().contains(cluster.replicaOf(master)), "the replica was not promoted");
    assertTrue(tally.acknowledgedAfterKill.get() > 0, "no task created after the failover");
    return tally;
  }

  /** Creates tasks one after the other until {@code end}; after a failure, pauses as a client backing off would. */
  static Future<Void> run(TwoServers.Instance instance, Principal owner, long end, Tally tally) {
    Promise<Void> done = Promise.promise();
    next(instance, owner, end, tally, done);
    return done.future();
  }

  private static void next(TwoServers.Instance instance, Principal owner, long end, Tally tally,
      Promise<Void> done) {
    if (System.nanoTime() > end) {
      done.complete();
      return;
    }
    long start = System.nanoTime();
    JsonObject call = new JsonObject().put("name", "quick").put("arguments", new JsonObject().put("delayMs", 5));
    instance.stateless("tools/call", call, owner).timeout(HUNG_MS, TimeUnit.MILLISECONDS).onComplete(ar -> {
      long elapsedMs = (System.nanoTime() - start) / 1_000_000;
      if (ar.failed()) {
        tally.hung.incrementAndGet();
        next(instance, owner, end, tally, done);
      } else if (ar.result().containsKey("result")) {
        tally.acknowledged.put(ar.result().getJsonObject("result").getString("taskId"), owner.key());
        if (tally.killed) {
          tally.acknowledgedAfterKill.incrementAndGet();
        }
        next(instance, owner, end, tally, done);
      } else {
        JsonObject error = ar.result().getJsonObject("error");
        String message = error.getString("message", "");
        String kind = error.getInteger("code") + " "
            + (message.startsWith("Task store unavailable") ? "Task store unavailable" : message);
        tally.failures.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
        tally.messages.putIfAbsent(message.replaceAll("[0-9]+", "N"), message);
        tally.slowestFailureMs.accumulateAndGet(elapsedMs, Math::max);
        instance.vertx.setTimer(50, t -> next(instance, owner, end, tally, done));
      }
    });
  }
}
