package io.mcpvertx.server.impl.tasks;

import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.vertx.core.Context;

/**
 * A task's handler running on this instance: what the {@link TaskEngine} needs to reach it (to cancel it, or to
 * hand it input) and to stop it when the task's lifetime ends. Each wire has its own kind.
 *
 * <p>{@link #cancel} and {@link #onChange} are called on {@link #context()}, or moved there by the
 * implementation.
 */
public abstract class TaskRun {

  private final String taskId;
  private final Context context;
  private final long expiresAt;
  /** The task's wire as its metadata records it (null if it does not), for observers. */
  private final String wire;
  private volatile long expiryTimer = -1;
  /** Set when the lease this run was recorded under was lost: the task is another instance's to settle now. */
  private volatile boolean disowned;

  public TaskRun(TaskRecord task, Context context) {
    this.taskId = task.taskId();
    this.context = context;
    this.expiresAt = task.expiresAt();
    this.wire = task.metadata() == null ? null : task.metadata().getString("wire");
  }

  public final String taskId() {
    return taskId;
  }

  public final Context context() {
    return context;
  }

  final String wire() {
    return wire;
  }

  final long expiresAt() {
    return expiresAt;
  }

  final long expiryTimer() {
    return expiryTimer;
  }

  final void expiryTimer(long timerId) {
    this.expiryTimer = timerId;
  }

  final boolean disowned() {
    return disowned;
  }

  final void disown() {
    this.disowned = true;
  }

  /** Tells the handler its task was cancelled (cooperatively: it decides when to stop). */
  protected abstract void cancel(String reason);

  /** A change to the task announced by the store (input responses, or a resync). */
  protected void onChange(TaskChange change) {
  }
}
