package io.mcpvertx.server.impl.tasks;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.spi.tasks.TaskChange;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Who waits for changes of a task (a blocking {@code tasks/result}, a {@code subscriptions/listen} stream), by
 * task id, and the delivery of the store's change announcements to them, each on its own context. Bounded by
 * {@code maxWatchers}. Thread-safe.
 */
final class TaskWatchers {

  /** A party interested in one task's changes; {@code onChange} runs on {@code context}. */
  private record Watcher(Context context, Consumer<TaskChange> onChange) {
  }

  private final Vertx vertx;
  private final int maxWatchers;
  private final ConcurrentMap<String, CopyOnWriteArrayList<Watcher>> watchers = new ConcurrentHashMap<>();
  private final AtomicInteger count = new AtomicInteger();

  TaskWatchers(Vertx vertx, int maxWatchers) {
    this.vertx = vertx;
    this.maxWatchers = maxWatchers;
  }

  /**
   * Calls {@code onChange} on the caller's context for every change of the task, until the returned action is
   * run. Fails with -32005 when too many watch at once.
   */
  Runnable watch(String taskId, Consumer<TaskChange> onChange) {
    if (count.incrementAndGet() > maxWatchers) {
      count.decrementAndGet();
      throw new McpException(JsonRpcErrorCodes.SERVER_OVERLOADED,
          "Too many parties waiting on tasks (limit " + maxWatchers + ")");
    }
    Watcher watcher = new Watcher(vertx.getOrCreateContext(), onChange);
    watchers.computeIfAbsent(taskId, k -> new CopyOnWriteArrayList<>()).add(watcher);
    return () -> {
      CopyOnWriteArrayList<Watcher> list = watchers.get(taskId);
      if (list != null && list.remove(watcher)) {
        count.decrementAndGet();
        watchers.computeIfPresent(taskId, (k, l) -> l.isEmpty() ? null : l);
      }
    };
  }

  /** Tells the watchers of the changed task, or everyone after a {@link TaskChange.Kind#RESYNC}. */
  void announce(TaskChange change) {
    if (change.kind() == TaskChange.Kind.RESYNC) {
      watchers.values().forEach(list -> list.forEach(w -> deliver(w, change)));
      return;
    }
    CopyOnWriteArrayList<Watcher> list = watchers.get(change.taskId());
    if (list != null) {
      list.forEach(w -> deliver(w, change));
    }
  }

  private static void deliver(Watcher watcher, TaskChange change) {
    watcher.context().runOnContext(v -> watcher.onChange().accept(change));
  }
}
