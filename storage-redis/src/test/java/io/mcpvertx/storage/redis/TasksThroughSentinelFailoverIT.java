package io.mcpvertx.storage.redis;

import static io.mcpvertx.storage.redis.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.storage.redis.TasksThroughClusterFailoverIT.Tally;
import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.mcpvertx.testing.LogCapture;
import io.vertx.core.Future;
import io.vertx.redis.client.RedisClientType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.event.Level;

/**
 * {@link TasksThroughClusterFailoverIT} through a sentinel instead of a cluster: a master with two replicas and a
 * sentinel that promotes one of them once the master has not answered for a second, and points the other at it.
 * Clients of two server instances (in the client's SENTINEL mode) keep creating tasks while the master is killed
 * (SIGKILL); the store waits for one replica per create. Nothing hangs, failures are fast and clear, no
 * acknowledged task is lost, and creations succeed again with our servers never restarted.
 */
class TasksThroughSentinelFailoverIT {

  @RegisterExtension
  static final RedisServerExtension REDIS = new RedisServerExtension();

  private static final long DOWN_AFTER_MS = 1_000;
  private static final long TIMEOUT_MS = 500;
  private static final int CLIENTS_PER_INSTANCE = 4;
  private static final long KILL_AT_MS = 1_500;
  private static final long AFTER_KILL_MS = 10_000;

  private static final String AUDIT = "io.mcpvertx.tasks.audit";
  private static final String ERRORS = "io.mcpvertx.server.impl.tasks.TaskErrors";

  @Test
  void noAcknowledgedTaskIsLostWhenTheSentinelPromotesTheReplica() throws InterruptedException {
    TestRedis master = REDIS.redis();
    master.assumePrivate();
    LogCapture.setLevel(AUDIT, Level.WARN);
    LogCapture.setLevel(ERRORS, Level.ERROR);
    try (TestRedis replica = master.startReplica();
        TestRedis other = master.startReplica();
        TestRedis sentinel = master.startSentinel("primary", DOWN_AFTER_MS)) {
      awaitTrue(() -> {
        String replicas = String.valueOf(sentinel.call("SENTINEL", "REPLICAS", "primary"));
        return replicas.contains(Integer.toString(replica.port())) && replicas.contains(Integer.toString(other.port()));
      }, "the sentinel knows the replicas");
      RedisStoreOptions options = new RedisStoreOptions().setType(RedisClientType.SENTINEL)
          .setConnectionString(sentinel.url()).setMasterName("primary").setKeyPrefix(master.keyPrefix())
          .setReconnectDelayMs(50).setPingIntervalMs(200).setMaxPoolSize(8).setCommandTimeoutMs(TIMEOUT_MS)
          .setWaitReplicas(1).setWaitTimeoutMs(TIMEOUT_MS);
      try (TwoServers servers = new TwoServers(options, new TaskOptions().setMaxActivePerOwner(100_000))) {
        Tally tally = new Tally();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_AT_MS + AFTER_KILL_MS);
        List<Future<Void>> running = new ArrayList<>();
        for (TwoServers.Instance instance : List.of(servers.a, servers.b)) {
          for (int i = 0; i < CLIENTS_PER_INSTANCE; i++) {
            running.add(TasksThroughClusterFailoverIT.run(instance,
                TwoServers.principal("client-" + instance.name + i), end, tally));
          }
        }
        Thread.sleep(KILL_AT_MS);
        int beforeKill = tally.acknowledged.size();
        master.kill();
        tally.killed = true;
        // The clients run until AFTER_KILL_MS after the kill, and their last call may take up to its hang bound.
        await(Future.all(running), AFTER_KILL_MS + TasksThroughClusterFailoverIT.HUNG_MS + 5_000);

        int lost = 0;
        for (Map.Entry<String, String> task : tally.acknowledged.entrySet()) {
          TaskRecord stored = await(servers.b.store.get(task.getKey()));
          if (stored == null || !stored.owner().equals(task.getValue())) {
            lost++;
          }
        }
        long settled = tally.acknowledged.keySet().stream().map(id -> await(servers.a.store.get(id)))
            .filter(task -> task != null && task.status().isTerminal()).count();
        int failed = tally.failures.values().stream().mapToInt(AtomicInteger::get).sum();
        System.out.printf("Master killed under load behind a sentinel (waiting for a replica): %d tasks"
            + " acknowledged: %d before the kill, %d after; %d settled; %d creations failed %s, the slowest after"
            + " %d ms; %d hung; %d lost; failures: %s%n", tally.acknowledged.size(), beforeKill,
            tally.acknowledgedAfterKill.get(), settled, failed, tally.failures, tally.slowestFailureMs.get(),
            tally.hung.get(), lost, tally.messages.values());

        assertEquals(0, tally.hung.get(), "requests that hung");
        assertTrue(beforeKill > 0, "no load before the kill");
        assertTrue(failed > 0, "the failover went unnoticed");
        assertEquals(Set.of("-32603 Task store unavailable"), tally.failures.keySet(), "unclear failures");
        assertTrue(tally.acknowledgedAfterKill.get() > 0, "no task created after the failover");
        assertEquals(0, lost, "acknowledged tasks lost");
        String promoted = String.valueOf(sentinel.call("SENTINEL", "GET-MASTER-ADDR-BY-NAME", "primary"));
        assertTrue(promoted.contains(Integer.toString(replica.port()))
            || promoted.contains(Integer.toString(other.port())), "no replica was promoted: " + promoted);
      }
    } finally {
      LogCapture.setLevel(AUDIT, null);
      LogCapture.setLevel(ERRORS, null);
    }
  }

  private static void awaitTrue(java.util.function.BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, what);
      Thread.sleep(50);
    }
  }
}
