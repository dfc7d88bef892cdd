package io.mcpvertx.spi.tasks;

/** Why a {@link TaskStore} refused or could not do what it was asked. */
public class TaskStoreException extends RuntimeException {

  /** The kinds of refusal callers tell apart. */
  public enum Reason {
    /** The owner already has {@code maxActivePerOwner} tasks that are not terminal. */
    LIMIT_EXCEEDED,
    /** A task with that id exists. */
    DUPLICATE_ID,
    /** An input request key was already used in the task's lifetime. */
    KEY_REUSED,
    /** A list cursor the store did not issue, or for another owner. */
    INVALID_CURSOR,
    /** The backing store cannot be reached (or did not answer in time). */
    UNAVAILABLE
  }

  private final Reason reason;

  public TaskStoreException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public TaskStoreException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
