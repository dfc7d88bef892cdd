package io.mcpvertx.server.tasks;

import static io.mcpvertx.server.tasks.TaskFixtures.assertNoViolations;
import static io.mcpvertx.server.tasks.TaskFixtures.byId;
import static io.mcpvertx.server.tasks.TaskFixtures.create;
import static io.mcpvertx.server.tasks.TaskFixtures.open;
import static io.mcpvertx.server.tasks.TaskFixtures.relatedTaskId;
import static io.mcpvertx.server.tasks.TaskFixtures.server;
import static io.mcpvertx.server.tasks.TaskFixtures.taskCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.tasks.TaskFixtures.Jobs;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Notifications of a running task (2025-11-25, "Task Progress Notifications", "Associating Task-Related Messages",
 * "Task Notifications"): the request's progressToken stays valid for the task's life, everything the task emits
 * names the task, and nothing is emitted once it is terminal.
 */
@ExtendWith(VertxExtension.class)
class TaskProgressTest {

  private static JsonObject withToken(JsonObject params, Object token) {
    return params.put("_meta", new JsonObject().put("progressToken", token));
  }

  private static List<JsonObject> progress(McpTestClient client) {
    return client.notifications("notifications/progress").stream().map(n -> n.getJsonObject("params")).toList();
  }

  /**
   * The progressToken of the tools/call remains valid after the CreateTaskResult; MUST: each notification
   * carries the related-task _meta; none is sent after the task completed.
   */
  @Test
  void keepsTheProgressTokenValidUntilTheTaskIsTerminal(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    open(vertx, server(vertx, jobs)).compose(client -> create(client, withToken(taskCall("job"), "report-7"))
        .compose(task -> jobs.job(0).compose(job -> {
          String id = task.getString("taskId");
          // The CreateTaskResult is out: the call's own request is over, the task's is not.
          job.ctx().progress(1, 3.0, "Fetched");
          job.ctx().progress(2, 3.0, "Parsed");
          job.complete("done");
          return client.call("tasks/result", byId(id)).compose(result -> {
            job.ctx().progress(3, 3.0, "too late");
            return client.call("ping", null);
          }).map(pong -> {
            List<JsonObject> sent = progress(client);
            assertEquals(2, sent.size(), sent.toString());
            for (JsonObject params : sent) {
              assertEquals("report-7", params.getString("progressToken"));
              assertEquals(id, relatedTaskId(params));
            }
            assertEquals(List.of(1.0, 2.0), sent.stream().map(p -> p.getDouble("progress")).toList());
            assertNoViolations(client);
            return sent;
          });
        }))).onComplete(test.succeedingThenComplete());
  }

  @Test
  void keepsANumberTokenANumber(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    open(vertx, server(vertx, jobs)).compose(client -> create(client, withToken(taskCall("job"), 41))
        .compose(task -> jobs.job(0)).compose(job -> {
          job.ctx().progress(0.5, null, null);
          job.complete("done");
          return client.awaitNotification("notifications/progress");
        }).map(notification -> {
          assertEquals(41, notification.getJsonObject("params").getValue("progressToken"));
          assertNoViolations(client);
          return notification;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void stopsProgressWhenTheTaskIsCancelled(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    open(vertx, server(vertx, jobs)).compose(client -> create(client, withToken(taskCall("job"), "t"))
        .compose(task -> jobs.job(0).compose(job -> {
          job.ctx().progress(1, null, null);
          return client.call("tasks/cancel", byId(task.getString("taskId"))).compose(cancelled -> job.cancelled()
              .future()).compose(reason -> {
                job.ctx().progress(2, null, "after the cancel");
                return client.call("ping", null);
              });
        })).map(pong -> {
          assertEquals(List.of(1.0), progress(client).stream().map(p -> p.getDouble("progress")).toList());
          assertNoViolations(client);
          return pong;
        })).onComplete(test.succeedingThenComplete());
  }

  /** A blocking handler reports progress from its worker thread: all of it arrives, tagged, before the end. */
  @Test
  void reportsProgressOfABlockingHandlerRunAsATask(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).blockingTool(Tool.builder("crunch").taskSupport(TaskSupport.OPTIONAL)
        .build(), (args, ctx) -> {
          for (int i = 1; i <= 5; i++) {
            ctx.progress(i, 5.0, "step " + i);
          }
          return ToolResult.text("crunched");
        });
    open(vertx, server).compose(client -> create(client, withToken(taskCall("crunch"), "c-1")).compose(task ->
        client.call("tasks/result", byId(task.getString("taskId"))).compose(result -> {
          assertEquals("crunched", result.getJsonArray("content").getJsonObject(0).getString("text"));
          return client.call("ping", null);
        }).map(pong -> {
          List<JsonObject> sent = progress(client);
          assertEquals(List.of(1.0, 2.0, 3.0, 4.0, 5.0), sent.stream().map(p -> p.getDouble("progress")).toList());
          sent.forEach(p -> assertEquals(task.getString("taskId"), relatedTaskId(p)));
          assertNoViolations(client);
          return sent;
        }))).onComplete(test.succeedingThenComplete());
  }

  /** MUST: log messages of the task's handler are notifications related to the task, so they name it. */
  @Test
  void tagsTheTasksLogMessagesWithTheRelatedTask(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    open(vertx, server(vertx, jobs)).compose(client -> create(client, taskCall("job")).compose(task ->
        jobs.job(0).compose(job -> {
          job.ctx().log(LoggingLevel.INFO, "reports", "half way");
          job.complete("done");
          return client.awaitNotification("notifications/message");
        }).map(message -> {
          JsonObject params = message.getJsonObject("params");
          assertEquals("half way", params.getString("data"));
          assertEquals(task.getString("taskId"), relatedTaskId(params));
          assertNoViolations(client);
          return message;
        }))).onComplete(test.succeedingThenComplete());
  }

  /**
   * notifications/tasks/status (MAY, and we send it): the full task, valid against the schema, without the
   * related-task _meta (SHOULD NOT), on the session's own stream.
   */
  @Test
  void announcesEachStatusChangeWithTheFullTask(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    open(vertx, server(vertx, jobs)).compose(client -> create(client, taskCall("job", 45_000L)).compose(task ->
        jobs.job(0).compose(job -> {
          job.complete("done");
          return client.awaitNotification("notifications/tasks/status");
        }).map(notification -> {
          JsonObject params = notification.getJsonObject("params");
          TaskFixtures.assertTask(params);
          assertEquals(task.getString("taskId"), params.getString("taskId"));
          assertEquals("completed", params.getString("status"));
          assertEquals(45_000L, params.getLong("ttl"));
          assertEquals(task.getString("createdAt"), params.getString("createdAt"));
          assertNull(params.getValue("_meta"));
          assertEquals(McpTestClient.SESSION_STREAM, client.streamOf(notification));
          assertNoViolations(client);
          return notification;
        }))).onComplete(test.succeedingThenComplete());
  }
}
