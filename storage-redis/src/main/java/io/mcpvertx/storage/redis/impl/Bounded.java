package io.mcpvertx.storage.redis.impl;

import io.vertx.core.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Bounds a call to Redis in time and turns whatever went wrong with it into the store's "unavailable" failure,
 * so callers never hang on a silent server and always see one kind of error for an outage.
 *
 * <p>Apply it to the Redis call only, before the result is interpreted: failures that are answers (an unknown
 * event id, a refused change) must not be disguised as outages.
 */
public final class Bounded {

  private final long timeoutMs;
  private final Function<String, RuntimeException> unavailable;
  private final Predicate<Throwable> mapped;

  /**
   * {@code unavailable} makes the store's failure from a description of the cause; {@code mapped} recognizes
   * one, which passes through unchanged when a bounded call is bounded again.
   */
  public Bounded(long timeoutMs, Function<String, RuntimeException> unavailable, Predicate<Throwable> mapped) {
    this.timeoutMs = timeoutMs;
    this.unavailable = unavailable;
    this.mapped = mapped;
  }

  public long timeoutMs() {
    return timeoutMs;
  }

  /** The call, failed as unavailable if it fails or takes longer than the command timeout. */
  public <T> Future<T> call(Future<T> call) {
    return call(call, timeoutMs);
  }

  /** As {@link #call(Future)}, with a time limit of its own (a {@code WAIT} takes longer than a command). */
  public <T> Future<T> call(Future<T> call, long limitMs) {
    return call.timeout(limitMs, TimeUnit.MILLISECONDS).recover(failure -> Future.failedFuture(map(failure, limitMs)));
  }

  /** The store's failure for an outage, with {@code failure} as the description. */
  private Throwable map(Throwable failure, long limitMs) {
    if (mapped.test(failure)) {
      return failure;
    }
    String cause = failure instanceof TimeoutException
        ? "no answer from Redis within " + limitMs + " ms"
        : "Redis: " + failure.getMessage();
    RuntimeException outage = unavailable.apply(cause);
    if (!(failure instanceof TimeoutException)) {
      outage.addSuppressed(failure);
    }
    return outage;
  }

  /** The store's failure for an outage of the given cause. */
  public RuntimeException unavailable(String cause) {
    return unavailable.apply(cause);
  }
}
