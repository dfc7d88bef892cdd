package io.mcpvertx.server.tasks;

import static io.mcpvertx.testing.stores.McpStoresTesting.tasksIn;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolExecution;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskPage;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.TaskStoreException;
import io.mcpvertx.spi.tasks.TaskUpdate;
import io.mcpvertx.spi.tasks.memory.InMemoryTaskStore;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A task whose handler finishes while the store is unavailable keeps its outcome: the engine stores it once the
 * store is back, rather than leaving the task working until it expires.
 */
@ExtendWith(VertxExtension.class)
class OutcomeAfterStoreOutageTest {

  /** An in-memory store whose first completions fail as a store that cannot be reached fails them. */
  private static final class CompletionsFailAtFirst implements TaskStore {
    private final TaskStore store;
    private final AtomicInteger failuresLeft;
    final AtomicInteger attempts = new AtomicInteger();

    CompletionsFailAtFirst(TaskStore store, int failures) {
      this.store = store;
      this.failuresLeft = new AtomicInteger(failures);
    }

    @Override
    public Future<TaskUpdate> complete(String taskId, TaskStatus status, JsonObject result, JsonObject error,
        String statusMessage) {
      attempts.incrementAndGet();
      if (failuresLeft.getAndDecrement() > 0) {
        return Future.failedFuture(new TaskStoreException(TaskStoreException.Reason.UNAVAILABLE,
            "task store unavailable: (test) down"));
      }
      return store.complete(taskId, status, result, error, statusMessage);
    }

    @Override
    public Future<TaskRecord> create(NewTask task) {
      return store.create(task);
    }

    @Override
    public Future<Void> abandon(NewTask task) {
      return store.abandon(task);
    }

    @Override
    public Future<TaskRecord> get(String taskId) {
      return store.get(taskId);
    }

    @Override
    public Future<TaskUpdate> transition(String taskId, Set<TaskStatus> from, TaskStatus to, String message) {
      return store.transition(taskId, from, to, message);
    }

    @Override
    public Future<TaskUpdate> requestInput(String taskId, Map<String, JsonObject> requests, String message) {
      return store.requestInput(taskId, requests, message);
    }

    @Override
    public Future<TaskUpdate> respond(String taskId, Map<String, JsonObject> responses) {
      return store.respond(taskId, responses);
    }

    @Override
    public Future<TaskPage> list(String owner, String cursor, int limit) {
      return store.list(owner, cursor, limit);
    }

    @Override
    public Future<Registration> listen(Handler<TaskChange> handler) {
      return store.listen(handler);
    }
  }

  @Test
  void anOutcomeTheStoreCouldNotTakeIsStoredOnceItIsBack(Vertx vertx, VertxTestContext test) {
    CompletionsFailAtFirst store = new CompletionsFailAtFirst(InMemoryTaskStore.create(vertx), 3);
    McpServer server = McpServer.create(vertx, new McpServerOptions(), tasksIn(vertx, store))
        .tool(Tool.builder("quick").execution(ToolExecution.task(TaskSupport.OPTIONAL)).build(),
            (args, ctx) -> Future.succeededFuture(ToolResult.text("kept")));
    McpTestClient.inProcess(vertx, server)
        .compose(client -> client.initialize("2025-11-25").compose(init -> client.call("tools/call",
                new JsonObject().put("name", "quick").put("task", new JsonObject().put("ttl", 60_000))))
            .map(created -> created.getJsonObject("task").getString("taskId"))
            .compose(id -> client.call("tasks/result", new JsonObject().put("taskId", id))))
        .onComplete(test.succeeding(result -> test.verify(() -> {
          assertEquals("kept", result.getJsonArray("content").getJsonObject(0).getString("text"));
          assertEquals(4, store.attempts.get(), "three failed attempts, then the one that took");
          test.completeNow();
        })));
  }
}
