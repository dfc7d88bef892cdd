package io.mcpvertx.server.stateless;

import static io.mcpvertx.testing.StatelessTestClient.ALL_CAPABILITIES;
import static io.mcpvertx.testing.StatelessTestClient.TASKS_EXTENSION;
import static io.mcpvertx.testing.StatelessTestClient.WITH_TASKS;
import static io.mcpvertx.server.stateless.TaskTools.call;
import static io.mcpvertx.server.stateless.TaskTools.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The tasks extension ({@code io.modelcontextprotocol/tasks}) on the 2026-07-28 wire: when a {@code tools/call}
 * becomes a task (the tool's execution policy and the client's per-request declaration), how a task ends (result,
 * tool error, JSON-RPC error, cancellation), and the extension's methods and headers.
 */
@ExtendWith(VertxExtension.class)
class TasksExtensionTest {

  private McpServer server;
  private StatelessTestClient client;
  private HeldCalls held;

  @BeforeEach
  void setUp(Vertx vertx) {
    held = new HeldCalls();
    server = TaskTools.register(StatelessFixtures.server(vertx), held);
    client = StatelessTestClient.engine(vertx, server);
  }

  private Future<StatelessTestClient.Exchange> callAsTask(String tool) {
    return client.request("tools/call", call(tool)).capabilities(WITH_TASKS.copy()).send();
  }

  private Future<StatelessTestClient.Exchange> tasks(String method, JsonObject params) {
    return client.request(method, params).capabilities(WITH_TASKS.copy()).send();
  }

  private static JsonObject id(String taskId) {
    return new JsonObject().put("taskId", taskId);
  }

  /** An acknowledgement: resultType "complete" and nothing else but {@code _meta}. */
  private static void assertAck(StatelessTestClient.Exchange x) {
    JsonObject result = x.complete();
    assertEquals(Set.of("resultType", "_meta"), result.fieldNames(), result::encode);
  }

  // ---- promotion policy ----

  @Test
  void aCallPromotedAtOnceIsReadableBeforeTheReplyArrives(VertxTestContext test) {
    callAsTask("held_now").compose(x -> {
      JsonObject created = x.task();
      assertEquals("working", created.getString("status"));
      assertEquals(TaskOptions.DEFAULT_TTL_MS, created.getLong("ttlMs"));
      assertEquals(TaskOptions.DEFAULT_POLL_INTERVAL_MS, created.getLong("pollIntervalMs"));
      Instant createdAt = Instant.parse(created.getString("createdAt"));
      assertFalse(Instant.parse(created.getString("lastUpdatedAt")).isBefore(createdAt));
      assertTrue(created.getJsonObject("_meta").containsKey("io.modelcontextprotocol/serverInfo"));
      assertTrue(x.notifications().isEmpty(), () -> "nothing on the call's stream: " + x.notifications());
      String taskId = created.getString("taskId");
      // No wait, no retry: the task exists once its id is out.
      return client.getTask(taskId, null).compose(get -> {
        JsonObject task = get.complete();
        assertEquals(taskId, task.getString("taskId"));
        assertEquals("working", task.getString("status"));
        assertEquals(created.getString("createdAt"), task.getString("createdAt"));
        assertFalse(task.containsKey("result") || task.containsKey("error") || task.containsKey("inputRequests"));
        return held.next().compose(h -> h.release());
      }).compose(v -> client.awaitStatus(taskId, null, "completed"));
    }).onComplete(test.succeeding(task -> test.verify(() -> {
      assertEquals("done ", text(task.getJsonObject("result")));
      assertEquals("complete", task.getJsonObject("result").getString("resultType"));
      assertFalse(task.getJsonObject("result").getBoolean("isError", false));
      client.assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void aQuickCallIsAnsweredDirectlyEvenWhenItCouldBecomeATask(VertxTestContext test) {
    callAsTask("quick_later").onComplete(test.succeeding(x -> test.verify(() -> {
      assertEquals("quick", text(x.complete()));
      client.assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void aSlowCallBecomesATask(VertxTestContext test) {
    // The handler cannot finish before the client has the task: the test lets it go only then.
    callAsTask("held_later").compose(x -> {
      String taskId = x.task().getString("taskId");
      return client.getTask(taskId, null).compose(get -> {
        assertEquals("working", get.complete().getString("status"));
        return held.next().compose(h -> h.release());
      }).compose(v -> client.awaitStatus(taskId, null, "completed"));
    }).onComplete(test.succeeding(task -> test.verify(() -> {
      assertEquals("done ", text(task.getJsonObject("result")));
      client.assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void questionsBeforePromotionAreRoundTripsAndTheTaskCarriesTheirAnswers(VertxTestContext test) {
    JsonObject params = call("ask_then_work");
    client.request("tools/call", params).capabilities(WITH_TASKS.copy()).send().compose(first -> {
      JsonObject asked = first.inputRequired();
      assertEquals(Set.of("user_name"), asked.getJsonObject("inputRequests").fieldNames());
      JsonObject retry = params.copy()
          .put("inputResponses", new JsonObject().put("user_name", StatelessFixtures.accept("name", "Alice")))
          .put("requestState", asked.getString("requestState"));
      return client.request("tools/call", retry).capabilities(WITH_TASKS.copy()).send();
    }).compose(second -> {
      String taskId = second.task().getString("taskId");
      return client.getTask(taskId, null).compose(get -> {
        // The question was answered before the task existed: the task never asks it.
        assertEquals("working", get.complete().getString("status"));
        return held.next().compose(h -> h.release());
      }).compose(v -> client.awaitStatus(taskId, null, "completed"));
    }).onComplete(test.succeeding(task -> test.verify(() -> {
      assertEquals("Hello, Alice", text(task.getJsonObject("result")));
      client.assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void aToolThatForbidsTasksIgnoresTheExtensionAndParamsTask(VertxTestContext test) {
    JsonObject params = StatelessFixtures.call("echo", new JsonObject().put("text", "direct"))
        .put("task", new JsonObject().put("ttl", 5));
    client.request("tools/call", params).capabilities(WITH_TASKS.copy()).send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          assertEquals("direct", text(x.complete()));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void theServerNotParamsTaskDecidesTheLifetime(VertxTestContext test) {
    client.request("tools/call", call("held_now").put("task", new JsonObject().put("ttl", 5)))
        .capabilities(WITH_TASKS.copy()).send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          assertEquals(TaskOptions.DEFAULT_TTL_MS, x.task().getLong("ttlMs"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aRequiredTaskWithoutTheExtensionIsAMissingCapability(VertxTestContext test) {
    client.request("tools/call", call("required_task")).capabilities(ALL_CAPABILITIES.copy()).send()
        .compose(x -> {
          JsonObject error = x.assertError(-32021);
          assertEquals(new JsonObject().put(TASKS_EXTENSION, new JsonObject()),
              error.getJsonObject("data").getJsonObject("requiredCapabilities").getJsonObject("extensions"));
          return callAsTask("required_task");
        })
        .onComplete(test.succeeding(x -> test.verify(() -> {
          assertEquals("working", x.task().getString("status"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void anOptionalTaskWithoutTheExtensionIsAnsweredDirectly(VertxTestContext test) {
    Future<StatelessTestClient.Exchange> call = client.request("tools/call", call("held_now").put("task",
        new JsonObject())).send();
    held.next().compose(h -> h.release()).compose(v -> call)
        .onComplete(test.succeeding(x -> test.verify(() -> {
          assertEquals("done ", text(x.complete()));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  // ---- how a task ends ----

  @Test
  void aToolErrorCompletesTheTaskWithTheResultInlined(VertxTestContext test) {
    callAsTask("tool_error").compose(x -> held.next().compose(h -> h.release())
            .compose(v -> client.awaitTask(x.task().getString("taskId"), null,
                task -> !task.getString("status").equals("working"))))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          assertEquals("completed", task.getString("status"));
          assertTrue(task.getJsonObject("result").getBoolean("isError"));
          assertEquals("boom: the input was bad", text(task.getJsonObject("result")));
          assertFalse(task.containsKey("error"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aJsonRpcErrorFailsTheTaskWithTheErrorInlined(VertxTestContext test) {
    callAsTask("protocol_error").compose(x -> held.next().compose(h -> h.release())
            .compose(v -> client.awaitTask(x.task().getString("taskId"), null,
                task -> !task.getString("status").equals("working"))))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          assertEquals("failed", task.getString("status"));
          assertEquals(new JsonObject().put("code", -32603).put("message", "The backend is down"),
              task.getJsonObject("error"));
          assertEquals("Tool execution failed: The backend is down", task.getString("statusMessage"));
          assertFalse(task.containsKey("result"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void anUnexpectedExceptionFailsTheTaskWithoutItsDetails(VertxTestContext test) {
    callAsTask("crash").compose(x -> held.next().compose(h -> h.release())
            .compose(v -> client.awaitStatus(x.task().getString("taskId"), null, "failed")))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          JsonObject error = task.getJsonObject("error");
          assertEquals(-32603, error.getInteger("code"));
          assertFalse(task.encode().contains("secret"), task::encode);
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void cancellingARunningTaskStopsItsHandlerAndItStaysCancelled(VertxTestContext test) {
    callAsTask("held_now").compose(x -> {
      String taskId = x.task().getString("taskId");
      return held.next().compose(h -> tasks("tasks/cancel", id(taskId)).compose(ack -> {
        assertAck(ack);
        return h.cancelled();
      }).compose(reason -> {
        assertEquals("The task was cancelled by request.", reason);
        return client.getTask(taskId, null);
      }).compose(get -> {
        JsonObject task = get.complete();
        assertEquals("cancelled", task.getString("status"));
        assertEquals("The task was cancelled by request.", task.getString("statusMessage"));
        // The handler ignores the cancellation and finishes: its result comes too late.
        return h.release();
      }).compose(v -> client.getTask(taskId, null)));
    }).onComplete(test.succeeding(get -> test.verify(() -> {
      JsonObject task = get.complete();
      assertEquals("cancelled", task.getString("status"));
      assertFalse(task.containsKey("result"), task::encode);
      client.assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void aTaskThatWaitedForPromotionIsCancelledToo(VertxTestContext test) {
    callAsTask("held_later").compose(x -> {
      String taskId = x.task().getString("taskId");
      return held.next().compose(h -> tasks("tasks/cancel", id(taskId)).compose(ack -> h.cancelled()))
          .compose(reason -> client.awaitStatus(taskId, null, "cancelled"));
    }).onComplete(test.succeeding(task -> test.verify(() -> {
      client.assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void cancellingAFinishedTaskIsAcknowledgedAndChangesNothing(VertxTestContext test) {
    callAsTask("held_now").compose(x -> {
      String taskId = x.task().getString("taskId");
      return held.next().compose(h -> h.release())
          .compose(v -> client.awaitStatus(taskId, null, "completed"))
          .compose(done -> tasks("tasks/cancel", id(taskId)).compose(ack -> {
            assertAck(ack);
            return client.getTask(taskId, null);
          }).map(after -> {
            assertEquals(done, after.complete());
            return null;
          }));
    }).onComplete(test.succeeding(v -> test.verify(() -> {
      client.assertNoViolations();
      test.completeNow();
    })));
  }

  // ---- methods and headers ----

  @Test
  void unknownTaskIdsAreInvalidParams(VertxTestContext test) {
    JsonObject unknown = id("no-such-task");
    tasks("tasks/get", unknown).compose(get -> {
      assertEquals("Failed to retrieve task: Task not found", get.assertError(-32602).getString("message"));
      return tasks("tasks/update", unknown.copy().put("inputResponses", new JsonObject()));
    }).compose(update -> {
      update.assertError(-32602);
      return tasks("tasks/cancel", unknown);
    }).compose(cancel -> {
      cancel.assertError(-32602);
      return tasks("tasks/get", new JsonObject());
    }).onComplete(test.succeeding(missing -> test.verify(() -> {
      missing.assertError(-32602);
      client.assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void theTaskMethodsNeedTheExtensionDeclaredOnTheRequest(VertxTestContext test) {
    callAsTask("held_now").compose(x -> {
      JsonObject params = id(x.task().getString("taskId"));
      return client.request("tasks/get", params).send()
          .compose(get -> {
            assertMissingExtension(get);
            return client.request("tasks/update", params.copy().put("inputResponses", new JsonObject())).send();
          })
          .compose(update -> {
            assertMissingExtension(update);
            return client.request("tasks/cancel", params).send();
          });
    }).onComplete(test.succeeding(cancel -> test.verify(() -> {
      assertMissingExtension(cancel);
      client.assertNoViolations();
      test.completeNow();
    })));
  }

  private static void assertMissingExtension(StatelessTestClient.Exchange x) {
    JsonObject error = x.assertError(-32021);
    assertNotNull(error.getJsonObject("data").getJsonObject("requiredCapabilities").getJsonObject("extensions")
        .getJsonObject(TASKS_EXTENSION), error::encode);
  }

  @Test
  void tasksResultAndTasksListAreNotMethodsOfThisWire(VertxTestContext test) {
    tasks("tasks/result", id("any")).compose(result -> {
      result.assertError(-32601);
      return tasks("tasks/list", new JsonObject());
    }).onComplete(test.succeeding(list -> test.verify(() -> {
      list.assertError(-32601);
      client.assertNoViolations();
      test.completeNow();
    })));
  }
}
