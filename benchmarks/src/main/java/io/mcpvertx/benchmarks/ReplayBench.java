package io.mcpvertx.benchmarks;

import io.mcpvertx.spi.EventStore;
import io.mcpvertx.storage.redis.RedisEventStore;
import io.mcpvertx.storage.redis.RedisStoreOptions;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code Last-Event-ID} replay against a private Redis on loopback:
 * {@code java -jar benchmarks/target/mcp-vertx-benchmarks.jar replay [--lengths 200,10000,100000]
 * [--missed 1,100,1000] [--replays 2000] [--event-bytes 200]}.
 *
 * <p>For each stream length, one stream of a session gets that many events (of {@code event-bytes} bytes, about a
 * small notification); then, one replay at a time, {@code replays} times per count of missed events, the store is
 * asked for everything after the event that many from the end, as a client reconnecting with that
 * {@code Last-Event-ID} would. Reported: the latency percentiles of {@link EventStore#replayAfter} as the caller
 * sees it (round trip included), and Redis's CPU per replay. Nothing here runs in the build.
 */
public final class ReplayBench {

  private ReplayBench() {
  }

  public static void main(String[] args) throws Exception {
    List<Integer> lengths = List.of(200, 10_000, 100_000);
    List<Integer> missedCounts = List.of(1, 100, 1_000);
    int replays = 2_000;
    int eventBytes = 200;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--lengths" -> lengths = ints(args[++i]);
        case "--missed" -> missedCounts = ints(args[++i]);
        case "--replays" -> replays = Integer.parseInt(args[++i]);
        case "--event-bytes" -> eventBytes = Integer.parseInt(args[++i]);
        default -> {
          System.err.println("usage: replay [--lengths 200,10000,100000] [--missed 1,100,1000] [--replays 2000]"
              + " [--event-bytes 200]");
          System.exit(2);
        }
      }
    }
    Buffer event = Buffer.buffer("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"d\":\""
        + "x".repeat(Math.max(0, eventBytes - 80)) + "\"}}");
    int maxLength = lengths.stream().mapToInt(Integer::intValue).max().orElse(0);
    try (TestRedis redis = TestRedis.start(ReplayBench.class)) {
      Vertx vertx = Vertx.vertx();
      RedisEventStore store = RedisEventStore.create(vertx, new RedisStoreOptions().setConnectionString(redis.url())
          .setKeyPrefix(redis.keyPrefix()).setMaxEventsPerStream(maxLength).setCommandTimeoutMs(10_000));
      System.out.printf("Redis %s on loopback (%s); events of %d bytes; %d replays one at a time per row%n%n",
          RedisStats.info(redis, "server").get("redis_version"), redis.isPrivate() ? "private" : "external",
          event.length(), replays);
      System.out.println("| stream length | events missed | p50 µs | p99 µs | max µs | Redis CPU µs / replay |");
      System.out.println("|---|---|---|---|---|---|");
      try {
        for (int length : lengths) {
          String session = "bench-session-" + length;
          List<String> ids = new ArrayList<>(length);
          for (int n = 0; n < length; n++) {
            ids.add(await(store.append(session, "s", event)));
          }
          for (int missed : missedCounts) {
            if (missed >= length) {
              continue;
            }
            String lastSeen = ids.get(length - 1 - missed);
            for (int w = 0; w < Math.min(500, replays); w++) {
              check(await(store.replayAfter(session, lastSeen)), missed);
            }
            double cpuBefore = RedisStats.cpuSeconds(redis);
            long[] latencies = new long[replays];
            for (int r = 0; r < replays; r++) {
              long start = System.nanoTime();
              EventStore.Replay replay = await(store.replayAfter(session, lastSeen));
              latencies[r] = System.nanoTime() - start;
              check(replay, missed);
            }
            double cpu = RedisStats.cpuSeconds(redis) - cpuBefore;
            Arrays.sort(latencies);
            System.out.printf("| %,d | %,d | %,d | %,d | %,d | %.1f |%n", length, missed,
                latencies[replays / 2] / 1_000, latencies[(int) (replays * 0.99)] / 1_000,
                latencies[replays - 1] / 1_000, cpu * 1e6 / replays);
          }
        }
      } finally {
        await(store.close());
        await(vertx.close());
      }
    }
  }

  private static void check(EventStore.Replay replay, int missed) {
    if (replay.events().size() != missed) {
      throw new IllegalStateException("replayed " + replay.events().size() + " events, expected " + missed);
    }
  }

  private static List<Integer> ints(String list) {
    return Arrays.stream(list.split(",")).map(String::trim).map(Integer::valueOf).toList();
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get();
  }
}
