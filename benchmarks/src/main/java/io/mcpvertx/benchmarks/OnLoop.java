package io.mcpvertx.benchmarks;

import io.vertx.core.Context;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs a benchmark's batch on an event loop and waits for it on the benchmark's thread (never an event loop):
 * what is measured then runs where it runs in the server, one hop per batch.
 */
final class OnLoop {

  private OnLoop() {
  }

  static void run(Context context, Runnable batch) throws InterruptedException {
    CountDownLatch done = new CountDownLatch(1);
    context.runOnContext(v -> {
      try {
        batch.run();
      } finally {
        done.countDown();
      }
    });
    if (!done.await(10, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the event loop did not run the batch within 10 s");
    }
  }
}
