package io.mcpvertx.spi.tasks;

import java.util.List;

/** One page of an owner's tasks, oldest first; {@code nextCursor} is null on the last page. */
public record TaskPage(List<TaskRecord> tasks, String nextCursor) {

  public TaskPage {
    tasks = List.copyOf(tasks);
  }
}
