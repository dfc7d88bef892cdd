package io.mcpvertx.spi.tasks.memory;

import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskStore;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;

/**
 * The listeners of an {@link InMemoryTaskStore}, each with the context it registered from. Thread-safe.
 * {@link #announce} only queues work to those contexts and never runs a handler itself, so the store may call it
 * while it holds an owner's lock: that is how each listener gets a task's changes in the order they applied.
 */
final class ChangeListeners {

  private final Vertx vertx;
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();

  private static final class Listener {
    final Context context;
    final Handler<TaskChange> handler;
    volatile boolean active = true;

    Listener(Context context, Handler<TaskChange> handler) {
      this.context = context;
      this.handler = handler;
    }
  }

  ChangeListeners(Vertx vertx) {
    this.vertx = vertx;
  }

  /** Registers a handler to run on the caller's context, or on a new one when the caller has none. */
  Future<TaskStore.Registration> add(Handler<TaskChange> handler) {
    Objects.requireNonNull(handler, "handler");
    Context current = Vertx.currentContext();
    Listener listener = new Listener(current != null ? current : vertx.getOrCreateContext(), handler);
    listeners.add(listener);
    return Future.succeededFuture(() -> {
      // The flag also stops changes already queued to the listener's context.
      listener.active = false;
      listeners.remove(listener);
      return Future.succeededFuture();
    });
  }

  void announce(TaskChange change) {
    for (Listener listener : listeners) {
      try {
        listener.context.runOnContext(v -> {
          if (listener.active) {
            listener.handler.handle(change);
          }
        });
      } catch (RejectedExecutionException closed) {
        // The listener's event loop has shut down, so nothing can reach it again; the change itself stands.
        listener.active = false;
        listeners.remove(listener);
      }
    }
  }
}
