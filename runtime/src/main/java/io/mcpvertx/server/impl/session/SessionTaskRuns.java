package io.mcpvertx.server.impl.session;

import io.mcpvertx.server.impl.tasks.TaskRun;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The handlers of the tasks one session started that are still running here: what must end before the session's
 * context may go (its timers go with it). A run leaves when its handler finished or its task was cancelled.
 * Accessed only on the session's context.
 */
final class SessionTaskRuns {

  private final Set<TaskRun> runs = new LinkedHashSet<>();
  /** Completed once the last run leaves; null while nobody waits. */
  private Promise<Void> idle;

  void add(TaskRun run) {
    runs.add(run);
  }

  void remove(TaskRun run) {
    if (runs.remove(run) && runs.isEmpty() && idle != null) {
      Promise<Void> waiting = idle;
      idle = null;
      waiting.complete();
    }
  }

  List<TaskRun> snapshot() {
    return new ArrayList<>(runs);
  }

  /** Completes once no run is left (at once when none is). */
  Future<Void> idle() {
    if (runs.isEmpty()) {
      return Future.succeededFuture();
    }
    if (idle == null) {
      idle = Promise.promise();
    }
    return idle.future();
  }
}
