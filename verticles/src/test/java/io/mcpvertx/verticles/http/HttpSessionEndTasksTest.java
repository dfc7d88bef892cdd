package io.mcpvertx.verticles.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolExecution;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.testing.http.StreamableHttpSession;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A 2025-11-25 session that ends while a handler of its tasks waits on a timer (deleted by its client, or expired
 * idle) leaves no task {@code working} without a handler: a task only that session could read is cancelled at
 * once; a task of a principal runs to its end (its session's verticle outlives the session for it) or, past the
 * endpoint's bound, is failed.
 */
@ExtendWith(VertxExtension.class)
class HttpSessionEndTasksTest {

  private static final String V11 = "2025-11-25";
  /** A timer no test lasts: a handler waiting on it finishes only if the test's fix did not work. */
  private static final long FOREVER_MS = 600_000;

  private static MockAuthorizationServer authorizationServer;

  @BeforeAll
  static void startAuthorizationServer() {
    authorizationServer = new MockAuthorizationServer();
  }

  @AfterAll
  static void stopAuthorizationServer() {
    authorizationServer.close();
  }

  private static String token(String subject) {
    return authorizationServer.token(subject, HttpAuthTest.RESOURCE, "mcp:basic mcp:tools", 300);
  }

  /**
   * An endpoint serving {@code sleep}, a task whenever asked, whose handler waits {@code ms} on a timer of its
   * session's context; one task handler at a time may run.
   */
  private static Future<HttpTestServer> start(Vertx vertx, McpHttpServerOptions options) {
    McpServerOptions serverOptions = new McpServerOptions()
        .setTaskOptions(new TaskOptions().setMaxLocalExecutions(1));
    return HttpTestServer.start(vertx, serverOptions, options, 1).map(server -> {
      server.mcp.tool(Tool.builder("sleep").description("Answers after ms milliseconds")
              .execution(ToolExecution.task(TaskSupport.OPTIONAL)).build(),
          (args, ctx) -> {
            Promise<ToolResult> slept = Promise.promise();
            vertx.setTimer(args.getLong("ms"), t -> slept.tryComplete(ToolResult.text("slept")));
            return slept.future();
          });
      return server;
    });
  }

  private static JsonObject sleep(long ms) {
    return new JsonObject().put("name", "sleep").put("arguments", new JsonObject().put("ms", ms))
        .put("task", new JsonObject());
  }

  /** Starts a {@code sleep} task on the session: its id. */
  private static Future<String> sleepTask(StreamableHttpSession session, long ms) {
    return session.call("tools/call", sleep(ms)).map(created -> {
      assertEquals("working", created.getJsonObject("task").getString("status"), created::encode);
      return created.getJsonObject("task").getString("taskId");
    });
  }

  /** The task as the store has it once it is no longer working (the test's timeout bounds the wait). */
  private static Future<TaskRecord> settled(HttpTestServer server, String taskId) {
    return Poll.retry(server.vertx, () -> server.mcp.stores().tasks().get(taskId),
        task -> task != null && task.status().isTerminal());
  }

  @Test
  void aTaskOfASessionItsClientDeletedIsCancelledAndFreesItsSlot(Vertx vertx, VertxTestContext test) {
    start(vertx, new McpHttpServerOptions()).compose(server -> server.client().initialize(V11)
        .compose(session -> sleepTask(session, FOREVER_MS).compose(taskId -> session.delete()
            .compose(deleted -> {
              assertEquals(200, deleted.status(), deleted::toString);
              return settled(server, taskId);
            })))
        .compose(task -> {
          assertEquals(TaskStatus.CANCELLED, task.status());
          assertTrue(task.statusMessage().contains("its session ended (deleted by the client)"),
              task::statusMessage);
          // The only execution slot is free again: a new session's task runs and completes.
          return server.client().initialize(V11).compose(other -> sleepTask(other, 1)
              .compose(taskId -> other.call("tasks/result", new JsonObject().put("taskId", taskId))));
        }))
        .onComplete(test.succeeding(result -> test.verify(() -> {
          assertEquals("slept", result.getJsonArray("content").getJsonObject(0).getString("text"));
          test.completeNow();
        })));
  }

  @Test
  void aTaskOfASessionThatExpiredIdleIsCancelled(Vertx vertx, VertxTestContext test) {
    start(vertx, new McpHttpServerOptions().setSessionIdleTimeoutMs(300)).compose(server ->
            server.client().initialize(V11)
                .compose(session -> sleepTask(session, FOREVER_MS))
                .compose(taskId -> settled(server, taskId)))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          assertEquals(TaskStatus.CANCELLED, task.status());
          assertTrue(task.statusMessage().contains("its session ended (it expired after being idle)"),
              task::statusMessage);
          test.completeNow();
        })));
  }

  @Test
  void aPrincipalsTaskFinishesAfterItsSessionIsDeletedAndAnotherSessionReadsIt(Vertx vertx,
      VertxTestContext test) {
    McpHttpServerOptions options = new McpHttpServerOptions()
        .setAuth(HttpAuthTest.jwtOptions(authorizationServer.issuer()));
    start(vertx, options).compose(server -> server.client().withBearer(token("alice")).initialize(V11)
        .compose(first -> sleepTask(first, 300).compose(taskId -> first.delete().compose(deleted -> {
          assertEquals(200, deleted.status(), deleted::toString);
          return server.client().withBearer(token("alice")).initialize(V11);
        }).compose(second -> second.call("tasks/result", new JsonObject().put("taskId", taskId))))))
        .onComplete(test.succeeding(result -> test.verify(() -> {
          assertEquals("slept", result.getJsonArray("content").getJsonObject(0).getString("text"));
          test.completeNow();
        })));
  }

  @Test
  void aPrincipalsTaskStillRunningPastTheBoundAfterItsSessionEndedIsFailed(Vertx vertx, VertxTestContext test) {
    McpHttpServerOptions options = new McpHttpServerOptions()
        .setAuth(HttpAuthTest.jwtOptions(authorizationServer.issuer()))
        .setEndedSessionTaskTimeoutMs(100);
    StreamableHttpSession[] second = new StreamableHttpSession[1];
    String[] task = new String[1];
    start(vertx, options).compose(server -> server.client().withBearer(token("alice")).initialize(V11)
        .compose(first -> sleepTask(first, FOREVER_MS).compose(taskId -> {
          task[0] = taskId;
          return first.delete();
        }))
        .compose(deleted -> server.client().withBearer(token("alice")).initialize(V11))
        .compose(session -> {
          second[0] = session;
          return Poll.retry(vertx, () -> session.call("tasks/get", new JsonObject().put("taskId", task[0])),
              got -> !"working".equals(got.getString("status")));
        }))
        .compose(got -> {
          assertEquals("failed", got.getString("status"), got::encode);
          assertTrue(got.getString("statusMessage").contains("did not finish within 100 ms"), got::encode);
          return second[0].post(second[0].request("tasks/result", new JsonObject().put("taskId", task[0])));
        })
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          List<JsonObject> messages = reply.messages();
          JsonObject error = messages.get(messages.size() - 1).getJsonObject("error");
          assertEquals(-32603, error.getInteger("code"), reply::toString);
          assertTrue(error.getString("message").contains("its session ended (deleted by the client)"),
              error::encode);
          test.completeNow();
        })));
  }
}
