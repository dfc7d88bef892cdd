package io.mcpvertx.spi.tasks;

/**
 * The outcome of a conditional change: whether it applied, and the task as it now is (after the change, or as it
 * was when the condition failed). {@code task} is null when there is no such task (never created, or expired).
 */
public record TaskUpdate(boolean applied, TaskRecord task) {

  public static TaskUpdate missing() {
    return new TaskUpdate(false, null);
  }
}
