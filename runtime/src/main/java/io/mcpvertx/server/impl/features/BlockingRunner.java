package io.mcpvertx.server.impl.features;

import io.mcpvertx.server.BlockingExecution;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * Runs handler code that blocks: on Vert.x's worker pool, or on a virtual thread per call when configured and
 * the JDK has them (21+). The result is delivered on the caller's context.
 */
public final class BlockingRunner {

  private static final Logger LOG = LoggerFactory.getLogger(BlockingRunner.class);

  private final Executor virtualThreads;

  public BlockingRunner(BlockingExecution mode) {
    this.virtualThreads = mode == BlockingExecution.VIRTUAL_THREAD ? virtualThreadExecutor() : null;
  }

  boolean usesVirtualThreads() {
    return virtualThreads != null;
  }

  public <T> Future<T> run(Context context, Callable<T> work) {
    if (virtualThreads == null) {
      return context.executeBlocking(work, false);
    }
    Promise<T> promise = Promise.promise();
    virtualThreads.execute(() -> {
      try {
        T value = work.call();
        context.runOnContext(v -> promise.complete(value));
      } catch (Throwable t) {
        context.runOnContext(v -> promise.fail(t));
      }
    });
    return promise.future();
  }

  /** Looked up reflectively because we compile for Java 17. */
  private static Executor virtualThreadExecutor() {
    try {
      Object executor = Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
      return (Executor) executor;
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn("Virtual threads need JDK 21 or later (running " + Runtime.version()
          + "); blocking handlers will use the worker pool");
      return null;
    }
  }
}
