package io.mcpvertx.verticles.http.auth.impl;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.ext.auth.oauth2.OAuth2Auth;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Fetches the JWKS again when a token names an unknown key id: at most one fetch at a time (callers arriving
 * meanwhile wait for it) and at most one per interval, so tokens with made-up key ids cannot flood the
 * authorization server. Thread-safe: the HTTP verticles of an endpoint share it.
 */
final class JwksRefresh {

  private record Attempt(long startedAtMs, Future<Void> done) {
  }

  private final OAuth2Auth provider;
  private final long minIntervalMs;
  private final long timeoutMs;
  private final LongSupplier clockMs;
  private final AtomicReference<Attempt> last;

  JwksRefresh(OAuth2Auth provider, long minIntervalMs, long timeoutMs, LongSupplier clockMs) {
    this.provider = provider;
    this.minIntervalMs = minIntervalMs;
    this.timeoutMs = timeoutMs;
    this.clockMs = clockMs;
    // The keys were just loaded at start-up: the interval counts from then.
    this.last = new AtomicReference<>(new Attempt(clockMs.getAsLong(), Future.succeededFuture()));
  }

  /**
   * Completes with true once a fetch (this one, or one already under way) succeeded, with false when none ran
   * (too soon after the previous one) or it failed.
   */
  Future<Boolean> refresh() {
    Attempt previous = last.get();
    if (!previous.done().isComplete()) {
      return succeeded(previous.done());
    }
    if (clockMs.getAsLong() - previous.startedAtMs() < minIntervalMs) {
      return Future.succeededFuture(false);
    }
    Promise<Void> promise = Promise.promise();
    Attempt mine = new Attempt(clockMs.getAsLong(), promise.future());
    if (!last.compareAndSet(previous, mine)) {
      return succeeded(last.get().done());
    }
    provider.jWKSet().timeout(timeoutMs, TimeUnit.MILLISECONDS).onComplete(promise);
    return succeeded(promise.future());
  }

  private static Future<Boolean> succeeded(Future<Void> done) {
    return done.transform(ar -> Future.succeededFuture(ar.succeeded()));
  }
}
