package io.mcpvertx.server.tasks;

import static io.mcpvertx.server.tasks.TaskFixtures.announced;
import static io.mcpvertx.server.tasks.TaskFixtures.assertError;
import static io.mcpvertx.server.tasks.TaskFixtures.assertNoViolations;
import static io.mcpvertx.server.tasks.TaskFixtures.assertTask;
import static io.mcpvertx.server.tasks.TaskFixtures.assertValidPath;
import static io.mcpvertx.server.tasks.TaskFixtures.awaitStatus;
import static io.mcpvertx.server.tasks.TaskFixtures.byId;
import static io.mcpvertx.server.tasks.TaskFixtures.create;
import static io.mcpvertx.server.tasks.TaskFixtures.createId;
import static io.mcpvertx.server.tasks.TaskFixtures.get;
import static io.mcpvertx.server.tasks.TaskFixtures.open;
import static io.mcpvertx.server.tasks.TaskFixtures.server;
import static io.mcpvertx.server.tasks.TaskFixtures.taskCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.tasks.TaskFixtures.Jobs;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * tasks/cancel (2025-11-25, "Task Cancellation", "Task Status Lifecycle", "Protocol Errors"): the task is cancelled
 * before the reply and stays cancelled whatever its handler does next; terminal tasks and tasks the requester
 * cannot see are refused with -32602.
 */
@ExtendWith(VertxExtension.class)
class TaskCancelTest {

  /**
   * MUST: a valid cancellation moves the task to cancelled before the response; SHOULD: the handler is told to
   * stop; MUST: once cancelled it stays cancelled even when the handler then completes.
   */
  @Test
  void cancelsBeforeReplyingAndStaysCancelledWhenTheHandlerCompletes(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    open(vertx, server(vertx, jobs)).compose(client -> createId(client, "job").compose(id -> jobs.job(0)
        .compose(job -> client.call("tasks/cancel", byId(id)).compose(cancelled -> {
          assertTask(cancelled);
          assertEquals(id, cancelled.getString("taskId"));
          assertEquals("cancelled", cancelled.getString("status"), "cancelled before the response");
          assertTrue(cancelled.containsKey("statusMessage"), cancelled.encode());
          return job.cancelled().future();
        }).compose(reason -> {
          assertTrue(job.ctx().isCancelled(), "the handler's context says it was cancelled");
          job.complete("finished anyway");
          return client.call("ping", null);
        }).compose(pong -> get(client, id)).compose(task -> {
          assertEquals("cancelled", task.getString("status"), "terminal statuses never change");
          return client.request("tasks/result", byId(id));
        }).map(result -> {
          assertTrue(result.containsKey("error"), "a cancelled task has no result: " + result.encode());
          List<String> statuses = announced(client, id);
          assertEquals(List.of("cancelled"), statuses);
          assertValidPath(statuses);
          assertNoViolations(client);
          return result;
        })))).onComplete(test.succeedingThenComplete());
  }

  /** MUST: it remains cancelled even if execution fails afterwards. */
  @Test
  void staysCancelledWhenTheHandlerFailsAfterwards(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    open(vertx, server(vertx, jobs)).compose(client -> createId(client, "job").compose(id -> jobs.job(0)
        .compose(job -> client.call("tasks/cancel", byId(id)).compose(cancelled -> {
          job.fail(new McpException(-32050, "gave up"));
          job.complete(ToolResult.error("or an error result"));
          return client.call("ping", null);
        })).compose(pong -> get(client, id)).map(task -> {
          assertEquals("cancelled", task.getString("status"));
          assertEquals(List.of("cancelled"), announced(client, id));
          assertNoViolations(client);
          return task;
        }))).onComplete(test.succeedingThenComplete());
  }

  /** A tasks/result waiting on the task is answered when the task is cancelled, not left hanging. */
  @Test
  void answersAWaitingTasksResultWhenTheTaskIsCancelled(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    open(vertx, server(vertx, jobs)).compose(client -> createId(client, "job").compose(id -> {
      Future<JsonObject> result = client.request("tasks/result", byId(id));
      return client.call("ping", null).compose(pong -> {
        assertFalse(result.isComplete());
        return client.call("tasks/cancel", byId(id));
      }).compose(cancelled -> result).map(response -> {
        assertTrue(response.containsKey("error"), response.encode());
        assertNoViolations(client);
        return response;
      });
    })).onComplete(test.succeedingThenComplete());
  }

  /** MUST: cancelling a task in a terminal status (completed, failed or cancelled) gets -32602. */
  @ParameterizedTest
  @ValueSource(strings = {"completed", "failed", "cancelled"})
  void refusesToCancelATerminalTask(String status, Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    McpServer server = server(vertx, jobs).tool(Tool.builder("refuse").taskSupport(TaskSupport.OPTIONAL).build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.error("no")));
    String tool = switch (status) {
      case "completed" -> "quick";
      case "failed" -> "refuse";
      default -> "job";
    };
    open(vertx, server).compose(client -> createId(client, tool).compose(id -> {
      Future<JsonObject> terminal = status.equals("cancelled")
          ? client.call("tasks/cancel", byId(id)) : awaitStatus(client, id, status);
      return terminal.compose(task -> client.request("tasks/cancel", byId(id))).compose(response -> {
        JsonObject error = assertError(response, -32602);
        assertTrue(error.getString("message").contains(status), error.encode());
        return get(client, id);
      }).map(task -> {
        assertEquals(status, task.getString("status"));
        assertNoViolations(client);
        return task;
      });
    })).onComplete(test.succeedingThenComplete());
  }

  /** MUST: an invalid or nonexistent taskId in tasks/get, tasks/result or tasks/cancel gets -32602. */
  @ParameterizedTest
  @ValueSource(strings = {"tasks/get", "tasks/result", "tasks/cancel"})
  void answersInvalidParamsForAnUnknownOrInvalidTaskId(String method, Vertx vertx, VertxTestContext test) {
    List<JsonObject> params = List.of(byId("AAAAAAAAAAAAAAAAAAAAAAAAAAA"), byId(""),
        new JsonObject().put("taskId", 7), new JsonObject());
    open(vertx, server(vertx, new Jobs())).compose(client -> {
      List<Future<JsonObject>> answers = params.stream().map(p -> client.request(method, p)).toList();
      return Future.all(answers).map(all -> {
        answers.forEach(answer -> assertError(answer.result(), -32602));
        assertNoViolations(client);
        return all;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void cancelsATaskWaitingForInput(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).tool(Tool.builder("interview").taskSupport(TaskSupport.OPTIONAL)
        .build(), (args, ctx) -> ctx.elicit(ElicitRequest.form("Name?",
            new JsonObject().put("type", "object"))).map(answer -> ToolResult.text("never")));
    JsonObject caps = new JsonObject().put("elicitation", new JsonObject());
    open(vertx, server, TaskFixtures.V, caps).compose(client -> create(client, taskCall("interview"))
        .compose(task -> {
          String id = task.getString("taskId");
          return awaitStatus(client, id, "input_required").compose(x -> client.call("tasks/cancel", byId(id)))
              .compose(cancelled -> {
                assertEquals("cancelled", cancelled.getString("status"));
                return client.call("ping", null);
              }).compose(pong -> get(client, id)).map(after -> {
                assertEquals("cancelled", after.getString("status"));
                List<String> statuses = announced(client, id);
                assertValidPath(statuses);
                assertEquals("cancelled", statuses.get(statuses.size() - 1));
                assertNoViolations(client);
                return after;
              });
        })).onComplete(test.succeedingThenComplete());
  }
}
