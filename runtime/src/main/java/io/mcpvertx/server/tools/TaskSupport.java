package io.mcpvertx.server.tools;

import java.util.Optional;

/**
 * Whether a tool runs as a task. The names are 2025-11-25's {@code execution.taskSupport} values; the tasks
 * extension (2026-07-28) reads them as the server's own policy, since there the server decides.
 */
public enum TaskSupport {
  /** Never a task: the call is answered directly. The default. */
  FORBIDDEN("forbidden"),
  /** A task when the client asks for one (2025-11-25) or when it declares the extension (2026-07-28). */
  OPTIONAL("optional"),
  /** Only as a task: a client that cannot take one is refused. */
  REQUIRED("required");

  private final String wireName;

  TaskSupport(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  public static Optional<TaskSupport> fromWireName(String name) {
    for (TaskSupport support : values()) {
      if (support.wireName.equals(name)) {
        return Optional.of(support);
      }
    }
    return Optional.empty();
  }
}
