package io.mcpvertx.benchmarks;

import io.mcpvertx.storage.redis.RedisStoreOptions;
import io.mcpvertx.storage.redis.testing.TestRedisCluster;
import io.vertx.core.Vertx;
import io.vertx.redis.client.RedisClientType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Task lifecycles per second on a private Redis Cluster, one master against several:
 * {@code java -jar benchmarks/target/mcp-vertx-benchmarks.jar tasks-cluster [--masters 1,3] [--concurrency 64]
 * [--pool 32] [--warmup 5] [--duration 10] [--rounds 2]}.
 *
 * <p>The lifecycle is {@link TaskLifecycleBench}'s {@code store-redis} one (create → complete → get, one owner per
 * loop), through a cluster client. For each cluster size the masters run without replicas, with AOF
 * {@code appendfsync everysec}, and each master's counters are reset before the measured part and read after: its
 * CPU and EVALSHA calls per lifecycle (of all lifecycles, so the masters' shares add up), and afterwards how many
 * of the run's keys it holds and in how many slots. Client, JVM and every master share this machine's CPUs, so the
 * raw rate says little about scaling; the CPU per lifecycle per master says how the work spreads.
 */
public final class ClusterLifecycleBench {

  private ClusterLifecycleBench() {
  }

  public static void main(String[] args) throws Exception {
    List<Integer> sizes = List.of(1, 3);
    int concurrency = 64;
    int pool = 32;
    int warmup = 5;
    int duration = 10;
    int rounds = 2;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--masters" -> sizes = List.of(args[++i].split(",")).stream().map(Integer::parseInt).toList();
        case "--concurrency" -> concurrency = Integer.parseInt(args[++i]);
        case "--pool" -> pool = Integer.parseInt(args[++i]);
        case "--warmup" -> warmup = Integer.parseInt(args[++i]);
        case "--duration" -> duration = Integer.parseInt(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        default -> {
          System.err.println("usage: tasks-cluster [--masters 1,3] [--concurrency 64] [--pool 32] [--warmup 5]"
              + " [--duration 10] [--rounds 2]");
          System.exit(2);
        }
      }
    }
    TaskLifecycleBench.quietAudit();
    System.out.printf("Redis Cluster on loopback, masters without replicas, AOF everysec; %d lifecycles in flight,"
        + " pool of %d connections, %d s warm-up + %d s measured, %d round(s), %d processor(s)%n%n", concurrency,
        pool, warmup, duration, rounds, Runtime.getRuntime().availableProcessors());
    System.out.println("| round | masters | lifecycles/s | p50 µs | p99 µs | failed | Redis CPU µs / lifecycle, all"
        + " masters | per master: CPU µs / lifecycle | per master: EVALSHA / lifecycle | per master: keys (slots) |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|");
    Vertx vertx = Vertx.vertx();
    try {
      for (int round = 1; round <= rounds; round++) {
        for (int masters : sizes) {
          try (TestRedisCluster cluster = TestRedisCluster.start(ClusterLifecycleBench.class, 5_000, masters,
              false)) {
            System.out.println(measure(vertx, cluster, masters, round, concurrency, pool, warmup, duration));
          }
        }
      }
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private static String measure(Vertx vertx, TestRedisCluster cluster, int masters, int round, int concurrency,
      int pool, int warmup, int duration) throws Exception {
    RedisStoreOptions options = new RedisStoreOptions().setType(RedisClientType.CLUSTER)
        .setConnectionStrings(cluster.urls()).setKeyPrefix(cluster.keyPrefix()).setMaxPoolSize(pool);
    try (TaskSubjects.Subject subject = TaskSubjects.create("store-redis", vertx, options, concurrency)) {
      TaskLifecycleBench.drive(vertx, subject, concurrency, warmup, null);
      double[] cpu = new double[masters];
      for (int m = 0; m < masters; m++) {
        cluster.call(m, "CONFIG", "RESETSTAT");
        cpu[m] = cpuSeconds(cluster, m);
      }
      long start = System.nanoTime();
      List<long[]> latencies = new ArrayList<>();
      long[] counts = TaskLifecycleBench.drive(vertx, subject, concurrency, duration, latencies);
      double seconds = (System.nanoTime() - start) / 1e9;
      long lifecycles = Math.max(1, counts[0]);
      double total = 0;
      List<String> perMasterCpu = new ArrayList<>();
      List<String> perMasterEval = new ArrayList<>();
      List<String> perMasterKeys = new ArrayList<>();
      for (int m = 0; m < masters; m++) {
        double used = cpuSeconds(cluster, m) - cpu[m];
        total += used;
        perMasterCpu.add(String.format("%.1f", used * 1e6 / lifecycles));
        perMasterEval.add(String.format("%.2f", evalshaCalls(cluster, m) / (double) lifecycles));
        List<String> keys = cluster.keys(m);
        Set<Long> slots = new HashSet<>();
        // Task records and indexes: the slot spread of what the run left (tasks live 2 s, indexes a minute more).
        for (String key : keys.subList(0, Math.min(keys.size(), 2_000))) {
          slots.add((Long) cluster.call(m, "CLUSTER", "KEYSLOT", key));
        }
        perMasterKeys.add(String.format("%,d (%s%,d)", keys.size(), keys.size() > 2_000 ? "≥" : "", slots.size()));
      }
      long[] all = latencies.stream().flatMapToLong(java.util.Arrays::stream).sorted().toArray();
      return String.format("| %d | %d | %,.0f | %,d | %,d | %d | %.1f | %s | %s | %s |", round, masters,
          counts[0] / seconds, percentileUs(all, 0.5), percentileUs(all, 0.99), counts[1], total * 1e6 / lifecycles,
          String.join(" / ", perMasterCpu), String.join(" / ", perMasterEval), String.join(" / ", perMasterKeys));
    }
  }

  private static long percentileUs(long[] sortedNs, double p) {
    return sortedNs.length == 0 ? 0
        : sortedNs[(int) Math.min(sortedNs.length - 1, Math.floor(p * sortedNs.length))] / 1_000;
  }

  private static double cpuSeconds(TestRedisCluster cluster, int node) {
    Map<String, String> cpu = section(cluster, node, "cpu");
    return Double.parseDouble(cpu.get("used_cpu_user")) + Double.parseDouble(cpu.get("used_cpu_sys"));
  }

  private static long evalshaCalls(TestRedisCluster cluster, int node) {
    String stats = section(cluster, node, "commandstats").getOrDefault("cmdstat_evalsha", "calls=0,");
    return Long.parseLong(stats.substring("calls=".length(), stats.indexOf(',')));
  }

  private static Map<String, String> section(TestRedisCluster cluster, int node, String name) {
    Map<String, String> values = new TreeMap<>();
    for (String line : String.valueOf(cluster.call(node, "INFO", name)).split("\r?\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && !line.startsWith("#")) {
        values.put(line.substring(0, colon), line.substring(colon + 1).trim());
      }
    }
    return values;
  }
}
