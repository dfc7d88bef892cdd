package io.mcpvertx.spi.tasks;

/**
 * A change the store announces to its listeners, on every instance that shares the store.
 *
 * <p>Delivery is at least once for changes made while the listener's connection is up. When the store may have
 * missed announcements (a reconnect), it sends one {@link Kind#RESYNC} with a null task id: listeners then read
 * again whatever they wait for.
 */
public record TaskChange(Kind kind, String taskId, TaskStatus status) {

  /** What changed. */
  public enum Kind {
    /** The status changed (to {@code status}), including to a terminal one. */
    STATUS,
    /** New input requests were added (the status is {@code input_required}). */
    INPUT_REQUESTED,
    /** Responses were recorded for outstanding input requests. */
    INPUT_RESPONDED,
    /** Announcements may have been lost; re-read. */
    RESYNC
  }

  public static TaskChange resync() {
    return new TaskChange(Kind.RESYNC, null, null);
  }
}
