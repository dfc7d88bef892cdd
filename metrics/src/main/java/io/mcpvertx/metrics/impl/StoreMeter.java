package io.mcpvertx.metrics.impl;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** The two timers (succeeded, failed) of one operation of one store, made once and shared. Thread-safe. */
final class StoreMeter {

  private final Timer ok;
  private final Timer error;

  StoreMeter(MeterRegistry registry, String store, String backend, String operation) {
    this.ok = timer(registry, store, backend, operation, "ok");
    this.error = timer(registry, store, backend, operation, "error");
  }

  private static Timer timer(MeterRegistry registry, String store, String backend, String operation, String outcome) {
    return Timer.builder("mcp.store.operation.duration")
        .description("Operations of the stores (sessions, events, tasks, leases), by backend and outcome")
        .tag("store", store).tag("backend", backend).tag("operation", operation).tag("outcome", outcome)
        .serviceLevelObjectives(MicrometerObserver.OPERATION_BUCKETS)
        .register(registry);
  }

  /** Runs {@code operation} and times it; the future returned is the operation's own. */
  <T> Future<T> time(Supplier<Future<T>> operation) {
    long start = System.nanoTime();
    Future<T> result = operation.get();
    result.onComplete(ar -> (ar.succeeded() ? ok : error).record(System.nanoTime() - start, TimeUnit.NANOSECONDS));
    return result;
  }

  /** The backend label of a store: what its class is built on, from a small fixed set. */
  static String backend(Object store) {
    String name = store.getClass().getName().toLowerCase(Locale.ROOT);
    if (name.contains("redis")) {
      return "redis";
    }
    if (name.contains("inmemory") || name.contains(".memory.")) {
      return "memory";
    }
    return "other";
  }
}
