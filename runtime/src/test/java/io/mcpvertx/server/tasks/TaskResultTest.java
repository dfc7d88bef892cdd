package io.mcpvertx.server.tasks;

import static io.mcpvertx.server.tasks.TaskFixtures.RELATED_TASK;
import static io.mcpvertx.server.tasks.TaskFixtures.assertCallToolResult;
import static io.mcpvertx.server.tasks.TaskFixtures.assertError;
import static io.mcpvertx.server.tasks.TaskFixtures.assertNoViolations;
import static io.mcpvertx.server.tasks.TaskFixtures.assertTask;
import static io.mcpvertx.server.tasks.TaskFixtures.awaitStatus;
import static io.mcpvertx.server.tasks.TaskFixtures.byId;
import static io.mcpvertx.server.tasks.TaskFixtures.createId;
import static io.mcpvertx.server.tasks.TaskFixtures.get;
import static io.mcpvertx.server.tasks.TaskFixtures.open;
import static io.mcpvertx.server.tasks.TaskFixtures.relatedTaskId;
import static io.mcpvertx.server.tasks.TaskFixtures.withoutRelatedTask;
import static io.mcpvertx.testing.stores.McpStoresTesting.tasksIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.tasks.TaskFixtures.Jobs;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.spi.tasks.memory.InMemoryTaskStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * tasks/get and tasks/result (2025-11-25, "Result Retrieval", "Task Execution Errors", "Associating Task-Related
 * Messages"): tasks/result blocks until the task is terminal, then returns exactly what the call would have
 * returned, result or JSON-RPC error, tagged with the related task.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
class TaskResultTest {

  private static final JsonObject STRUCTURED_SCHEMA = new JsonObject().put("type", "object")
      .put("properties", new JsonObject().put("sum", new JsonObject().put("type", "integer")));

  /** Tools whose direct answer the tests compare with the task's: a rich result, an error, and a tool error. */
  private static McpServer server(Vertx vertx) {
    return McpServer.create(vertx)
        .tool(Tool.builder("add").taskSupport(TaskSupport.OPTIONAL).outputSchema(STRUCTURED_SCHEMA).build(),
            (args, ctx) -> Future.succeededFuture(ToolResult.structured(new JsonObject().put("sum", 5))
                .withMeta(new JsonObject().put("example.com/cost", 3))))
        .tool(Tool.builder("broken").taskSupport(TaskSupport.OPTIONAL).build(),
            (args, ctx) -> Future.failedFuture(new McpException(-32050, "The upstream API refused the call",
                new JsonObject().put("upstream", "weather").put("status", 429))))
        .tool(Tool.builder("crash").taskSupport(TaskSupport.OPTIONAL).build(), (args, ctx) -> {
          throw new IllegalStateException("a bug in the tool");
        })
        .tool(Tool.builder("refuse").taskSupport(TaskSupport.OPTIONAL).build(),
            (args, ctx) -> Future.succeededFuture(ToolResult.error("The city is not known")));
  }

  private static JsonObject call(String tool) {
    return new JsonObject().put("name", tool);
  }

  /** MUST: tasks/result on a working task blocks until the task is terminal. */
  @Test
  void blocksTasksResultUntilTheTaskIsTerminal(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    open(vertx, server(vertx, jobs)).compose(client -> createId(client, "job").compose(id -> {
      Future<JsonObject> result = client.request("tasks/result", byId(id));
      // While the handler runs, the wait holds and polling goes on beside it.
      return get(client, id).compose(task -> {
        assertEquals("working", task.getString("status"));
        return client.call("ping", null);
      }).compose(pong -> {
        assertFalse(result.isComplete(), "tasks/result must wait for a terminal status");
        return jobs.job(0);
      }).compose(job -> {
        job.complete("done");
        return result;
      }).compose(response -> {
        JsonObject payload = response.getJsonObject("result");
        assertEquals(new JsonObject().put("content", new JsonArray()
            .add(new JsonObject().put("type", "text").put("text", "done"))), withoutRelatedTask(payload));
        assertEquals(id, relatedTaskId(payload));
        return get(client, id);
      }).map(task -> {
        assertEquals("completed", task.getString("status"));
        assertNoViolations(client);
        return task;
      });
    })).onComplete(test.succeedingThenComplete());
  }

  /**
   * MUST: for a terminal task, tasks/result returns exactly what the call would have returned; MUST: its result
   * carries the related-task _meta (the tool's own _meta entries stay).
   */
  @Test
  void returnsExactlyTheResultTheCallWouldHaveReturned(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx)).compose(client -> client.call("tools/call", call("add")).compose(direct ->
        createId(client, "add").compose(id -> awaitStatus(client, id, "completed")
            .compose(done -> client.call("tasks/result", byId(id)))
            .map(payload -> {
              assertCallToolResult(payload);
              assertEquals(new JsonObject().put("taskId", id),
                  payload.getJsonObject("_meta").getJsonObject(RELATED_TASK));
              assertEquals(3, payload.getJsonObject("_meta").getInteger("example.com/cost"));
              assertEquals(direct, withoutRelatedTask(payload));
              assertNoViolations(client);
              return payload;
            })))).onComplete(test.succeedingThenComplete());
  }

  /** MUST: a call that would have failed with a JSON-RPC error makes tasks/result fail with the same error. */
  @Test
  void returnsTheSameJsonRpcErrorTheCallWouldHaveReturned(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx)).compose(client -> client.request("tools/call", call("broken")).compose(direct -> {
      JsonObject expected = assertError(direct, -32050);
      return createId(client, "broken").compose(id -> awaitStatus(client, id, "failed").compose(failed -> {
        assertTask(failed);
        // SHOULD: a statusMessage with diagnostic information.
        assertTrue(failed.getString("statusMessage", "").contains("The upstream API refused the call"),
            failed.encode());
        return client.request("tasks/result", byId(id));
      })).map(response -> {
        assertEquals(expected, assertError(response, -32050), "code, message and data, unchanged");
        assertNoViolations(client);
        return response;
      });
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void returnsTheSameInternalErrorWhenTheHandlerThrows(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx)).compose(client -> client.request("tools/call", call("crash")).compose(direct -> {
      JsonObject expected = assertError(direct, -32603);
      return createId(client, "crash").compose(id -> awaitStatus(client, id, "failed")
          .compose(failed -> client.request("tasks/result", byId(id)))).map(response -> {
            assertEquals(expected, assertError(response, -32603));
            assertFalse(response.encode().contains("a bug in the tool"), "internals stay in the log");
            assertNoViolations(client);
            return response;
          });
    })).onComplete(test.succeedingThenComplete());
  }

  /**
   * A tool result with isError true fails the task ("Task Execution Errors"), and tasks/result still returns that
   * result as a successful JSON-RPC response, since that is what the call returned.
   */
  @Test
  void failsTheTaskWhenTheToolResultIsAnErrorAndReturnsThatResult(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx)).compose(client -> client.call("tools/call", call("refuse")).compose(direct -> {
      assertTrue(direct.getBoolean("isError"));
      return createId(client, "refuse").compose(id -> awaitStatus(client, id, "failed").compose(failed -> {
        assertTrue(failed.containsKey("statusMessage"), failed.encode());
        return client.request("tasks/result", byId(id));
      }).map(response -> {
        assertTrue(response.containsKey("result"), "a successful response: " + response.encode());
        JsonObject payload = response.getJsonObject("result");
        assertCallToolResult(payload);
        assertEquals(direct, withoutRelatedTask(payload));
        assertEquals(id, relatedTaskId(payload));
        assertNoViolations(client);
        return response;
      }));
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void returnsTheResultAgainToEveryTasksResult(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx)).compose(client -> createId(client, "add").compose(id -> {
      Future<JsonObject> first = client.call("tasks/result", byId(id));
      return first.compose(one -> client.call("tasks/result", byId(id))).map(two -> {
        assertEquals(first.result(), two);
        assertNoViolations(client);
        return two;
      });
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void wakesEveryWaitingTasksResult(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    open(vertx, server(vertx, jobs)).compose(client -> createId(client, "job").compose(id -> {
      Future<JsonObject> first = client.call("tasks/result", byId(id));
      Future<JsonObject> second = client.call("tasks/result", byId(id));
      return client.call("ping", null).compose(pong -> jobs.job(0)).compose(job -> {
        job.complete("for both");
        return Future.all(first, second);
      }).map(both -> {
        assertEquals(first.result(), second.result());
        assertEquals(id, relatedTaskId(first.result()));
        assertNoViolations(client);
        return both;
      });
    })).onComplete(test.succeedingThenComplete());
  }

  /**
   * A store's listener may take a while to be in place (a subscription over the network): a task that ends
   * meanwhile is announced to nobody, and a tasks/result already waiting must still be answered once the
   * listener is up, not when the task expires.
   */
  @Test
  void answersAWaitingTasksResultWhenTheTaskEndedBeforeTheStoreListenerWasUp(Vertx vertx, VertxTestContext test) {
    ControlledTaskStore store = new ControlledTaskStore(InMemoryTaskStore.create(vertx)).holdListeners();
    Jobs jobs = new Jobs();
    McpServer server = jobs.register(McpServer.create(vertx, new McpServerOptions(), tasksIn(vertx, store)));
    open(vertx, server).compose(client -> createId(client, "job").compose(id -> {
      Future<JsonObject> result = client.call("tasks/result", byId(id));
      return jobs.job(0).compose(job -> {
        job.complete("done early");
        return awaitStatus(client, id, "completed");
      }).compose(done -> {
        store.releaseListeners();
        return result;
      }).map(payload -> {
        assertEquals("done early", payload.getJsonArray("content").getJsonObject(0).getString("text"));
        assertNoViolations(client);
        return payload;
      });
    })).onComplete(test.succeedingThenComplete());
  }

  /** A client may give up waiting (notifications/cancelled for its tasks/result): the task runs on. */
  @Test
  void keepsTheTaskRunningWhenTheClientCancelsItsTasksResult(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    open(vertx, server(vertx, jobs)).compose(client -> createId(client, "job").compose(id -> {
      long waitId = client.nextRequestId();
      Future<JsonObject> abandoned = client.request("tasks/result", byId(id));
      return client.call("ping", null).compose(pong -> {
        client.notify("notifications/cancelled", new JsonObject().put("requestId", waitId).put("reason", "bored"));
        return get(client, id);
      }).compose(task -> {
        assertEquals("working", task.getString("status"));
        return jobs.job(0);
      }).compose(job -> {
        assertFalse(job.ctx().isCancelled(), "only the wait was cancelled");
        job.complete("done");
        return client.call("tasks/result", byId(id));
      }).map(result -> {
        assertEquals("done", result.getJsonArray("content").getJsonObject(0).getString("text"));
        assertFalse(abandoned.isComplete(), "a cancelled request gets no response");
        assertNoViolations(client);
        return result;
      });
    })).onComplete(test.succeedingThenComplete());
  }

  /**
   * MUST: for tasks/get, tasks/result and tasks/cancel the taskId parameter is the source of truth; a related-task
   * _meta naming another task is ignored.
   */
  @Test
  void usesTheTaskIdParameterAndIgnoresRelatedTaskMeta(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    open(vertx, server(vertx, jobs)).compose(client -> createId(client, "quick").compose(done ->
        createId(client, "job").compose(running -> {
          JsonObject pointingElsewhere = new JsonObject().put(RELATED_TASK, new JsonObject().put("taskId", running));
          return awaitStatus(client, done, "completed")
              .compose(x -> client.call("tasks/get", byId(done).put("_meta", pointingElsewhere)))
              .compose(got -> {
                assertEquals(done, got.getString("taskId"));
                assertEquals("completed", got.getString("status"));
                return client.call("tasks/result", byId(done).put("_meta", pointingElsewhere));
              }).compose(result -> {
                assertEquals(done, relatedTaskId(result));
                assertEquals("quick done", result.getJsonArray("content").getJsonObject(0).getString("text"));
                // Cancelling the finished task is refused even though the _meta names a running one.
                return client.request("tasks/cancel", byId(done).put("_meta", pointingElsewhere));
              }).compose(refused -> {
                assertError(refused, -32602);
                return get(client, running);
              }).map(stillRunning -> {
                assertEquals("working", stillRunning.getString("status"));
                assertNoViolations(client);
                return stillRunning;
              });
        }))).onComplete(test.succeedingThenComplete());
  }

  /** SHOULD NOT: no related-task _meta in tasks/get, tasks/list and tasks/cancel results. */
  @Test
  void leavesRelatedTaskMetaOutOfGetListAndCancelResults(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    open(vertx, server(vertx, jobs)).compose(client -> createId(client, "job").compose(id -> get(client, id)
        .compose(got -> {
          assertNull(got.getValue("_meta"), got.encode());
          return client.call("tasks/list", null);
        }).compose(list -> {
          assertNull(list.getValue("_meta"), list.encode());
          assertNull(list.getJsonArray("tasks").getJsonObject(0).getValue("_meta"));
          return client.call("tasks/cancel", byId(id));
        }).map(cancelled -> {
          assertNull(cancelled.getValue("_meta"), cancelled.encode());
          assertNoViolations(client);
          return cancelled;
        }))).onComplete(test.succeedingThenComplete());
  }

  private static McpServer server(Vertx vertx, Jobs jobs) {
    return TaskFixtures.server(vertx, jobs);
  }
}
