package io.mcpvertx.verticles.http;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.function.BooleanSupplier;

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

  private static void check(Vertx vertx, BooleanSupplier condition, Promise<Void> done) {
    if (condition.getAsBoolean()) {
      done.complete();
    } else {
      vertx.setTimer(INTERVAL_MS, t -> check(vertx, condition, done));
    }
  }
}
