package io.mcpvertx.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import io.mcpvertx.storage.redis.RedisStoreOptions;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Task lifecycles per second against a private Redis on loopback, with same-run baselines:
 * {@code java -jar benchmarks/target/mcp-vertx-benchmarks.jar tasks [--modes m1,m2,...] [--concurrency 64]
 * [--pool 32] [--warmup 5] [--duration 10] [--rounds 3] [--appendfsync everysec|always|no] [--quiet-wait 0]
 * [--quiet-busy 10]}.
 *
 * <p>A lifecycle is create → complete → get of one task, as a client and the task's handler make it; tasks live
 * {@value TaskSubjects#TTL_MS} ms, so their expiry falls within the measurement too. Modes:
 * <ul>
 *   <li>{@code ping}, {@code set}: raw Redis round trips (PING; SET of a 64-byte value) through the same client,
 *       pool and concurrency as the store: what the connection can do at all;</li>
 *   <li>{@code store-redis}, {@code store-memory}: through the {@code TaskStore} SPI
 *       directly, {@code RedisTaskStore} or {@code InMemoryTaskStore};</li>
 *   <li>{@code engine-redis}, {@code engine-memory}: through the server, as a 2026-07-28 client of the tasks
 *       extension makes it, without HTTP and codec: a {@code tools/call} of a task tool (validated and served by
 *       {@code McpServer.stateless()}) whose handler completes at once, then {@code tasks/get} until it reads
 *       completed.</li>
 * </ul>
 *
 * <p>Each mode runs {@code concurrency} lifecycles at a time (closed loop) spread over Vert.x's event loops, for
 * {@code warmup} seconds unmeasured and then {@code duration} seconds measured; after each, in-flight lifecycles
 * finish before the next step. Redis's own counters are reset ({@code CONFIG RESETSTAT}) between the two and read
 * after ({@code INFO commandstats}, {@code INFO cpu}), so the calls per command cover exactly the measured
 * lifecycles; the client-side round trips are counted by {@link CountingRedis}. Modes alternate within each
 * round, in one JVM, on one Redis (a fresh key prefix each time). On a shared machine, {@code --quiet-wait}
 * waits before each mode for the other processes to calm down, and every row says how busy they were. Nothing
 * here runs in the build.
 */
public final class TaskLifecycleBench {

  static final List<String> ALL_MODES = List.of("ping", "set", "store-memory", "store-redis", "engine-memory",
      "engine-redis");

  /** Per-task audit lines (one per create and complete) would measure the console: they are turned off. */
  private static final Logger AUDIT = Logger.getLogger("io.mcpvertx.tasks.audit");

  private TaskLifecycleBench() {
  }

  /** One measurement. */
  record Result(String mode, int round, long operations, long failures, double seconds, long[] latenciesNs,
      Map<String, Long> roundTrips, Map<String, Long> commandCalls, Map<String, Long> commandUsec,
      double redisCpuSeconds, double jvmCpuSeconds, double machineBusySeconds, long extraGets) {

    double perSecond() {
      return operations / seconds;
    }

    long percentileUs(double p) {
      if (latenciesNs.length == 0) {
        return 0;
      }
      return latenciesNs[(int) Math.min(latenciesNs.length - 1, Math.floor(p * latenciesNs.length))] / 1_000;
    }
  }

  public static void main(String[] args) throws Exception {
    List<String> modes = ALL_MODES;
    int concurrency = 64;
    int pool = 32;
    int warmup = 5;
    int duration = 10;
    int rounds = 3;
    String appendfsync = "everysec";
    int quietWait = 0;
    double quietBusy = 10;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--modes" -> modes = List.of(args[++i].split(","));
        case "--concurrency" -> concurrency = Integer.parseInt(args[++i]);
        case "--pool" -> pool = Integer.parseInt(args[++i]);
        case "--warmup" -> warmup = Integer.parseInt(args[++i]);
        case "--duration" -> duration = Integer.parseInt(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--appendfsync" -> appendfsync = args[++i];
        case "--quiet-wait" -> quietWait = Integer.parseInt(args[++i]);
        case "--quiet-busy" -> quietBusy = Double.parseDouble(args[++i]);
        default -> {
          System.err.println("usage: tasks [--modes " + String.join(",", ALL_MODES) + "] [--concurrency 64]"
              + " [--pool 32] [--warmup 5] [--duration 10] [--rounds 3] [--appendfsync everysec|always|no]"
              + " [--quiet-wait 0] [--quiet-busy 10]");
          System.exit(2);
        }
      }
    }
    if (!ALL_MODES.containsAll(modes)) {
      throw new IllegalArgumentException("unknown mode in " + modes + "; modes are " + ALL_MODES);
    }
    quietAudit();
    List<Result> results = new ArrayList<>();
    try (TestRedis redis = TestRedis.start(TaskLifecycleBench.class, "--appendfsync", appendfsync)) {
      Vertx vertx = Vertx.vertx();
      System.out.printf("Redis %s on loopback (%s, AOF appendfsync %s); %d lifecycles in flight, pool of %d "
              + "connections, %d s warm-up + %d s measured per mode, %d round(s), %d processor(s)%n%n",
          RedisStats.info(redis, "server").get("redis_version"), redis.isPrivate() ? "private" : "external",
          RedisStats.config(redis, "appendfsync"), concurrency, pool, warmup, duration, rounds,
          Runtime.getRuntime().availableProcessors());
      System.out.println(Report.header());
      try {
        for (int round = 1; round <= rounds; round++) {
          for (String mode : modes) {
            awaitQuiet(redis, quietWait, quietBusy);
            RedisStoreOptions options = new RedisStoreOptions().setConnectionString(redis.url())
                .setKeyPrefix(redis.keyPrefix() + mode + round + ":").setMaxPoolSize(pool);
            Result result = measure(vertx, redis, mode, round, options, concurrency, warmup, duration);
            results.add(result);
            System.out.println(Report.row(result));
          }
        }
      } finally {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
    }
    System.out.println();
    System.out.println(Report.summary(results));
    System.out.println(Report.commands(results));
  }

  static void quietAudit() {
    AUDIT.setLevel(Level.WARNING);
  }

  private static Result measure(Vertx vertx, TestRedis redis, String mode, int round, RedisStoreOptions options,
      int concurrency, int warmup, int duration) throws Exception {
    try (TaskSubjects.Subject subject = TaskSubjects.create(mode, vertx, options, concurrency)) {
      drive(vertx, subject, concurrency, warmup, null);
      if (subject.client() != null) {
        subject.client().reset();
      }
      subject.resetExtraGets();
      redis.call("CONFIG", "RESETSTAT");
      double redisCpu = RedisStats.cpuSeconds(redis);
      double jvmCpu = jvmCpuSeconds();
      double machine = RedisStats.machineBusySeconds();
      long start = System.nanoTime();
      List<long[]> latencies = new ArrayList<>();
      long[] counts = drive(vertx, subject, concurrency, duration, latencies);
      double seconds = (System.nanoTime() - start) / 1e9;
      double machineBusy = RedisStats.machineBusySeconds() - machine;
      double jvm = jvmCpuSeconds() - jvmCpu;
      double redisUsed = RedisStats.cpuSeconds(redis) - redisCpu;
      Map<String, Long> commands = RedisStats.commandStats(redis, "calls");
      Map<String, Long> usec = RedisStats.commandStats(redis, "usec");
      long[] all = latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
      return new Result(mode, round, counts[0], counts[1], seconds, all,
          subject.client() == null ? Map.of() : subject.client().counts(), commands, usec, redisUsed, jvm,
          machineBusy, subject.extraGets());
    }
  }

  /**
   * Runs {@code concurrency} loops of the subject's operation for {@code seconds}, then waits for those in flight.
   * Yields {operations, failures}; the latencies of each loop go to {@code latencies} when it is not null.
   */
  static long[] drive(Vertx vertx, TaskSubjects.Subject subject, int concurrency, int seconds,
      List<long[]> latencies) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    CountDownLatch done = new CountDownLatch(concurrency);
    LongAdder operations = new LongAdder();
    LongAdder failures = new LongAdder();
    AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    List<Loop> loops = new ArrayList<>();
    for (int w = 0; w < concurrency; w++) {
      Loop loop = new Loop(w, vertx.getOrCreateContext(), subject, end, done, operations, failures, firstFailure);
      loops.add(loop);
      loop.context.runOnContext(v -> loop.next());
    }
    if (!done.await(seconds + 60L, TimeUnit.SECONDS)) {
      throw new IllegalStateException("lifecycles still in flight a minute after the end");
    }
    if (firstFailure.get() != null) {
      System.out.println("  " + failures.sum() + " failure(s), the first: " + firstFailure.get());
    }
    if (latencies != null) {
      loops.forEach(loop -> latencies.add(Arrays.copyOf(loop.latencies, loop.count)));
    }
    return new long[] {operations.sum(), failures.sum()};
  }

  /** One closed loop of operations on its own context; an operation that completes at once does not recurse. */
  private static final class Loop {
    final int worker;
    final Context context;
    final TaskSubjects.Subject subject;
    final long end;
    final CountDownLatch done;
    final LongAdder operations;
    final LongAdder failures;
    final AtomicReference<Throwable> firstFailure;
    long[] latencies = new long[4096];
    int count;

    Loop(int worker, Context context, TaskSubjects.Subject subject, long end, CountDownLatch done,
        LongAdder operations, LongAdder failures, AtomicReference<Throwable> firstFailure) {
      this.worker = worker;
      this.context = context;
      this.subject = subject;
      this.end = end;
      this.done = done;
      this.operations = operations;
      this.failures = failures;
      this.firstFailure = firstFailure;
    }

    void next() {
      // Operations that complete at once (the in-memory store) run in a loop here, giving the event loop back
      // now and then.
      for (int synchronous = 0; synchronous < 256; synchronous++) {
        if (System.nanoTime() >= end) {
          done.countDown();
          return;
        }
        long start = System.nanoTime();
        Future<?> operation = subject.run(worker);
        if (!operation.isComplete()) {
          operation.onComplete(ar -> {
            record(ar.cause(), start);
            next();
          });
          return;
        }
        record(operation.cause(), start);
      }
      context.runOnContext(v -> next());
    }

    private void record(Throwable failure, long start) {
      if (failure != null) {
        failures.increment();
        firstFailure.compareAndSet(null, failure);
        return;
      }
      operations.increment();
      if (count == latencies.length) {
        latencies = Arrays.copyOf(latencies, count * 2);
      }
      latencies[count++] = System.nanoTime() - start;
    }
  }

  /**
   * Waits up to {@code seconds} until other processes used under {@code busyPercent} % of one CPU over 3 s (a
   * shared machine); 0 does not wait.
   */
  private static void awaitQuiet(TestRedis redis, int seconds, double busyPercent) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    double others = 0;
    while (System.nanoTime() < deadline) {
      double machine = RedisStats.machineBusySeconds();
      double own = jvmCpuSeconds() + RedisStats.cpuSeconds(redis);
      Thread.sleep(3_000);
      others = (RedisStats.machineBusySeconds() - machine - (jvmCpuSeconds() + RedisStats.cpuSeconds(redis) - own))
          * 100 / 3;
      if (others < busyPercent) {
        return;
      }
    }
    if (seconds > 0) {
      System.out.printf("  (not quiet after %d s: others used %.0f %% of a CPU)%n", seconds, others);
    }
  }

  private static double jvmCpuSeconds() {
    return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime() / 1e9;
  }
}
