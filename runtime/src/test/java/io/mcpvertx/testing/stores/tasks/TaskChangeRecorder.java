package io.mcpvertx.testing.stores.tasks;

import io.mcpvertx.spi.tasks.TaskChange.Kind;
import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.PATIENCE_MS;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.await;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.on;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A listener registered from a given context that records what it hears, and whether it heard it on that
 * context. Changes to other tests' tasks, repeats and {@link Kind#RESYNC} are allowed and ignored. Used from the
 * test's thread only; the listener itself only appends to thread-safe collections.
 */
public final class TaskChangeRecorder implements AutoCloseable {

  private final BlockingQueue<TaskChange> incoming = new LinkedBlockingQueue<>();
  private final List<TaskChange> heard = new ArrayList<>();
  private final List<String> wrongContexts = new ArrayList<>();
  private final Context context;
  private final TaskStore.Registration registration;
  private boolean closed;

  public TaskChangeRecorder(TaskStore store, Context context) {
    this.context = context;
    this.registration = await(on(context, () -> store.listen(change -> {
      if (Vertx.currentContext() != context) {
        synchronized (wrongContexts) {
          wrongContexts.add(String.valueOf(Vertx.currentContext()));
        }
      }
      incoming.add(change);
    })));
  }

  /** Waits until the listener has heard the change; changes may come in any order and more than once. */
  public void expect(String taskId, Kind kind, TaskStatus status) {
    TaskChange expected = new TaskChange(kind, taskId, status);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PATIENCE_MS);
    while (!heard.contains(expected)) {
      long left = deadline - System.nanoTime();
      TaskChange change;
      try {
        change = left > 0 ? incoming.poll(left, TimeUnit.NANOSECONDS) : null;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
      if (change == null) {
        throw new AssertionError("never heard " + expected + "; heard " + heard(taskId));
      }
      heard.add(change);
    }
    // What was heard for this change is spent, so a later expectation needs a later change.
    heard.removeIf(change -> change.equals(expected));
  }

  /** Everything heard about a task so far and not spent by {@link #expect}. */
  public List<TaskChange> heard(String taskId) {
    incoming.drainTo(heard);
    return heard.stream().filter(change -> taskId.equals(change.taskId())).toList();
  }

  public void assertOnItsContext() {
    synchronized (wrongContexts) {
      assertTrue(wrongContexts.isEmpty(), "heard on " + wrongContexts + " instead of " + context);
    }
  }

  /** Unregisters the listener, once. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      await(registration.unregister());
    }
  }
}
