package io.mcpvertx.verticles.http;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits for a condition the server reaches on its own timers (session expiry, asynchronous undeploys), checking
 * it on a Vert.x timer. There is no deadline here: the test's own timeout bounds the wait.
 */
final class Poll {

  private static final long INTERVAL_MS = 20;

  private Poll() {
  }

  static Future<Void> until(Vertx vertx, BooleanSupplier condition) {
    Promise<Void> done = Promise.promise();
    check(vertx, condition, done);
    return done.future();
  }

  /** Repeats {@code attempt} until its result passes {@code accept}; yields that result. */
  static <T> Future<T> retry(Vertx vertx, Supplier<Future<T>> attempt, Predicate<T> accept) {
    return attempt.get().compose(result -> accept.test(result)
        ? Future.succeededFuture(result)
        : delay(vertx).compose(v -> retry(vertx, attempt, accept)));
  }

  private static Future<Void> delay(Vertx vertx) {
    Promise<Void> promise = Promise.promise();
    vertx.setTimer(INTERVAL_MS, t -> promise.complete());
    return promise.future();
  }

  private static void check(Vertx vertx, BooleanSupplier condition, Promise<Void> done) {
    if (condition.getAsBoolean()) {
      done.complete();
    } else {
      vertx.setTimer(INTERVAL_MS, t -> check(vertx, condition, done));
    }
  }
}
