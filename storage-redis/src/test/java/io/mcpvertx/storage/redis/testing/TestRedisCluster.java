package io.mcpvertx.storage.redis.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Assumptions;

/**
 * A private Redis Cluster of three masters, each with one replica: six {@code redis-server} processes in cluster
 * mode on loopback ports of their own (or, for benchmarks, any number of masters with or without replicas) (see {@link RedisServerProcess} for the binary). The cluster is formed from
 * here, with the commands {@code redis-cli --cluster create} sends: each master takes a third of the slots and a
 * config epoch of its own, the nodes meet, and each replica follows its master. A node can be killed, as a crash
 * would, to watch its replica take over.
 *
 * <p>Skipped when {@value TestRedis#URL_ENV} points the tests at an external Redis: a cluster is always private.
 * Not thread-safe: a test class drives it from its own thread.
 */
public final class TestRedisCluster implements AutoCloseable {

  private static final int SLOTS = 16_384;
  private static final int ADMIN_TIMEOUT_MS = 10_000;
  private static final long FORM_TIMEOUT_S = 30;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final List<RedisServerProcess> nodes;
  private final String keyPrefix;
  /** Slot ranges of the masters, in equal parts; the masters are the first nodes, their replicas follow. */
  private final int[][] ranges;

  private TestRedisCluster(List<RedisServerProcess> nodes, String keyPrefix, int masters) {
    this.nodes = nodes;
    this.keyPrefix = keyPrefix;
    this.ranges = new int[masters][];
    for (int i = 0; i < masters; i++) {
      ranges[i] = new int[] {i * SLOTS / masters, (i + 1) * SLOTS / masters - 1};
    }
  }

  /**
   * Starts and forms a cluster for the test class {@code owner}. {@code nodeTimeoutMs} is how long a master may be
   * unreachable before its replica is promoted.
   */
  public static TestRedisCluster start(Class<?> owner, long nodeTimeoutMs) {
    String external = System.getenv(TestRedis.URL_ENV);
    Assumptions.assumeTrue(external == null || external.isBlank(), "needs a private Redis Cluster");
    return start(owner, nodeTimeoutMs, 3, true);
  }

  /**
   * Starts and forms a cluster of {@code masters} masters, each with one replica when {@code replicas}, whatever
   * {@value TestRedis#URL_ENV} says (for benchmarks, which run without JUnit).
   */
  public static TestRedisCluster start(Class<?> owner, long nodeTimeoutMs, int masters, boolean replicas) {
    List<RedisServerProcess> nodes = new ArrayList<>();
    byte[] random = new byte[4];
    RANDOM.nextBytes(random);
    TestRedisCluster cluster = new TestRedisCluster(nodes, "mcptest:"
        + owner.getSimpleName().replaceAll("[^A-Za-z0-9]", "") + ":" + HexFormat.of().formatHex(random) + ":",
        masters);
    try {
      for (int i = 0; i < (replicas ? 2 * masters : masters); i++) {
        nodes.add(RedisServerProcess.startOnFreePort("--cluster-enabled", "yes", "--cluster-node-timeout",
            Long.toString(nodeTimeoutMs), "--repl-diskless-sync-delay", "0",
            // A replica takes over however long its link was down: the tests kill masters on purpose.
            "--cluster-replica-validity-factor", "0"));
      }
      cluster.form();
      return cluster;
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  private void form() {
    for (int i = 0; i < ranges.length; i++) {
      call(i, "CLUSTER", "ADDSLOTSRANGE", Integer.toString(ranges[i][0]), Integer.toString(ranges[i][1]));
      call(i, "CLUSTER", "SET-CONFIG-EPOCH", Integer.toString(i + 1));
    }
    for (int i = 1; i < nodes.size(); i++) {
      call(0, "CLUSTER", "MEET", "127.0.0.1", Integer.toString(nodes.get(i).port()));
    }
    await(() -> {
      for (int i = 0; i < nodes.size(); i++) {
        String view = (String) call(i, "CLUSTER", "NODES");
        if (view.lines().count() < nodes.size() || view.contains("handshake")) {
          return false;
        }
      }
      return true;
    }, "every node knows every other");
    for (int i = 0; ranges.length + i < nodes.size(); i++) {
      call(ranges.length + i, "CLUSTER", "REPLICATE", nodeId(i));
    }
    await(() -> {
      for (int i = 0; i < nodes.size(); i++) {
        if (!String.valueOf(call(i, "CLUSTER", "INFO")).contains("cluster_state:ok")) {
          return false;
        }
      }
      for (int i = ranges.length; i < nodes.size(); i++) {
        if (!String.valueOf(call(i, "INFO", "replication")).contains("master_link_status:up")) {
          return false;
        }
      }
      return true;
    }, "cluster ok, replicas in sync");
  }

  /** Every node's connection string: a cluster client discovers the slots from whichever answers. */
  public List<String> urls() {
    List<String> urls = new ArrayList<>();
    for (RedisServerProcess node : nodes) {
      urls.add(url(node));
    }
    return urls;
  }

  /** The prefix every key of this test class must start with; unique per start. */
  public String keyPrefix() {
    return keyPrefix;
  }

  /** The node's id in the cluster. */
  public String nodeId(int node) {
    return (String) call(node, "CLUSTER", "MYID");
  }

  /** The indexes of the nodes that are masters now, as the live nodes see it, in slot order. */
  public List<Integer> masters() {
    List<Integer> masters = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      if (nodes.get(i).isRunning() && String.valueOf(call(i, "INFO", "replication")).contains("role:master")) {
        masters.add(i);
      }
    }
    return masters;
  }

  /**
   * The node that served {@code key}'s slot when the cluster was formed (a replica may have taken its place since).
   */
  public int firstMasterOf(String key) {
    long slot = (Long) call(0, "CLUSTER", "KEYSLOT", key);
    for (int i = 0; i < ranges.length; i++) {
      if (slot >= ranges[i][0] && slot <= ranges[i][1]) {
        return i;
      }
    }
    throw new IllegalStateException("slot " + slot + " out of range");
  }

  /** The replica formed for master {@code master}. */
  public int replicaOf(int master) {
    return ranges.length + master;
  }

  /** How many of this test's keys each live master holds, by node index. */
  public Map<Integer, Long> keysPerMaster() {
    Map<Integer, Long> counts = new LinkedHashMap<>();
    for (int master : masters()) {
      counts.put(master, (long) keys(master).size());
    }
    return counts;
  }

  /** The keys under this test's prefix on one node, found with SCAN. */
  @SuppressWarnings("unchecked")
  public List<String> keys(int node) {
    List<String> keys = new ArrayList<>();
    String cursor = "0";
    do {
      List<Object> reply = (List<Object>) call(node, "SCAN", cursor, "MATCH", keyPrefix + "*", "COUNT", "1000");
      cursor = (String) reply.get(0);
      ((List<Object>) reply.get(1)).forEach(k -> keys.add((String) k));
    } while (!"0".equals(cursor));
    return keys;
  }

  /** Kills a node abruptly (SIGKILL), as a crash would. */
  public void kill(int node) {
    nodes.get(node).kill();
  }

  /**
   * Starts a killed node again on its port with its data: it rejoins the cluster, as a replica once another node
   * took over its slots.
   */
  public void restart(int node) {
    nodes.get(node).start();
  }

  /** Waits until every live node reports the cluster healthy again, e.g. once a replica took a dead master's place. */
  public void awaitHealthy() {
    await(() -> {
      for (int i = 0; i < nodes.size(); i++) {
        if (nodes.get(i).isRunning()
            && !String.valueOf(call(i, "CLUSTER", "INFO")).contains("cluster_state:ok")) {
          return false;
        }
      }
      return true;
    }, "cluster ok");
  }

  /** Runs one command on one node over a short-lived admin connection (see {@link RespConnection}). */
  public Object call(int node, String... args) {
    try (RespConnection connection = RespConnection.open(url(nodes.get(node)), ADMIN_TIMEOUT_MS)) {
      return connection.call(args);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String url(RedisServerProcess node) {
    return "redis://127.0.0.1:" + node.port();
  }

  private void await(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(FORM_TIMEOUT_S);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("Redis Cluster not in time: " + what);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  /** Kills every node and deletes its data. */
  @Override
  public void close() {
    nodes.forEach(RedisServerProcess::destroy);
  }
}
