package io.mcpvertx.storage.redis;

import io.vertx.core.Future;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** Blocking waits for the JUnit thread of this module's own tests. */
final class Futures {

  private static final long PATIENCE_MS = 10_000;

  private Futures() {
  }

  static <T> T await(Future<T> future) {
    return await(future, PATIENCE_MS);
  }

  /** As {@link #await(Future)}, for a future that may rightly take up to {@code patienceMs} (a load running on). */
  static <T> T await(Future<T> future, long patienceMs) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(patienceMs, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("expected success, got " + e.getCause(), e.getCause());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** Null when the future succeeds, else its failure. */
  static Throwable outcome(Future<?> future) {
    try {
      future.toCompletionStage().toCompletableFuture().get(PATIENCE_MS, TimeUnit.MILLISECONDS);
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  static Throwable awaitFailure(Future<?> future) {
    Throwable failure = outcome(future);
    if (failure == null) {
      throw new AssertionError("expected a failure");
    }
    return failure;
  }
}
