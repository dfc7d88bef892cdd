package io.mcpvertx.spi.tasks;

import java.util.Optional;

/**
 * The five statuses both task wires share. {@code working} and {@code input_required} alternate; the other three
 * are terminal and never change again.
 */
public enum TaskStatus {
  WORKING("working"),
  INPUT_REQUIRED("input_required"),
  COMPLETED("completed"),
  FAILED("failed"),
  CANCELLED("cancelled");

  private final String wireName;

  TaskStatus(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  public boolean isTerminal() {
    return this == COMPLETED || this == FAILED || this == CANCELLED;
  }

  public static Optional<TaskStatus> fromWireName(String name) {
    for (TaskStatus status : values()) {
      if (status.wireName.equals(name)) {
        return Optional.of(status);
      }
    }
    return Optional.empty();
  }
}
