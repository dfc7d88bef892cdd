package io.mcpvertx.server.tasks;

import static io.mcpvertx.server.tasks.TaskFixtures.TASKS_CAPABILITY;
import static io.mcpvertx.server.tasks.TaskFixtures.V;
import static io.mcpvertx.server.tasks.TaskFixtures.assertError;
import static io.mcpvertx.server.tasks.TaskFixtures.assertNoViolations;
import static io.mcpvertx.server.tasks.TaskFixtures.byId;
import static io.mcpvertx.server.tasks.TaskFixtures.open;
import static io.mcpvertx.server.tasks.TaskFixtures.server;
import static io.mcpvertx.server.tasks.TaskFixtures.taskCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.tasks.TaskFixtures.Jobs;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Who may ask for a task (2025-11-25, basic/utilities/tasks, "Capabilities" and "Tool-Level Negotiation"): the
 * tasks capability, each tool's execution.taskSupport, and the -32601 answers when a call and its tool disagree.
 */
@ExtendWith(VertxExtension.class)
class TaskNegotiationTest {

  /** A server whose tools all forbid tasks. */
  private static McpServer directOnly(Vertx vertx) {
    return McpServer.create(vertx).tool(Tool.builder("direct").build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text("direct done")));
  }

  /** MUST: servers that support task-augmented requests declare the tasks capability at initialization. */
  @Test
  void declaresTheTasksCapabilityWhenAToolSupportsTasks(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, server(vertx, new Jobs())).compose(client -> client.initialize(V).map(init -> {
      assertEquals(TASKS_CAPABILITY, init.getJsonObject("capabilities").getJsonObject("tasks"));
      assertNoViolations(client);
      return init;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void declaresNoTasksCapabilityWhenNoToolSupportsTasks(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, directOnly(vertx)).compose(client -> client.initialize(V).map(init -> {
      assertFalse(init.getJsonObject("capabilities").containsKey("tasks"), init.encode());
      return init;
    })).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"2024-11-05", "2025-03-26", "2025-06-18"})
  void declaresNoTasksCapabilityBefore20251125(String version, Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, server(vertx, new Jobs())).compose(client -> client.initialize(version)
        .map(init -> {
          assertEquals(version, init.getString("protocolVersion"));
          assertFalse(init.getJsonObject("capabilities").containsKey("tasks"), init.encode());
          assertNoViolations(client);
          return init;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void listsTheTaskSupportOfEachTool(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx, new Jobs())).compose(client -> client.call("tools/list", null).map(list -> {
      Map<String, JsonObject> tools = byName(list.getJsonArray("tools"));
      assertEquals(new JsonObject().put("taskSupport", "optional"), tools.get("job").getJsonObject("execution"));
      assertEquals(new JsonObject().put("taskSupport", "required"), tools.get("required").getJsonObject("execution"));
      JsonObject direct = tools.get("direct");
      // Absent means forbidden, the default.
      assertTrue(!direct.containsKey("execution")
          || "forbidden".equals(direct.getJsonObject("execution").getString("taskSupport")), direct.encode());
      assertNoViolations(client);
      return list;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void listsNoExecutionBefore20251125(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx, new Jobs()), "2025-06-18", new JsonObject())
        .compose(client -> client.call("tools/list", null).map(list -> {
          byName(list.getJsonArray("tools")).values()
              .forEach(tool -> assertFalse(tool.containsKey("execution"), tool.encode()));
          assertNoViolations(client);
          return list;
        })).onComplete(test.succeedingThenComplete());
  }

  /** SHOULD (tested as our behaviour): a task asked of a tool whose taskSupport is forbidden gets -32601. */
  @Test
  void refusesATaskForAToolThatForbidsTasks(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx, new Jobs())).compose(client -> client.request("tools/call", taskCall("direct"))
        .compose(response -> {
          assertError(response, -32601);
          return client.call("tasks/list", null);
        }).map(list -> {
          assertEquals(new JsonArray(), list.getJsonArray("tasks"), "no task may have been created");
          assertNoViolations(client);
          return list;
        })).onComplete(test.succeedingThenComplete());
  }

  /** MUST: a tool whose taskSupport is required, called without params.task, gets -32601. */
  @Test
  void refusesACallWithoutATaskForAToolThatRequiresOne(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx, new Jobs())).compose(client -> client.request("tools/call",
        new JsonObject().put("name", "required")).map(response -> {
          assertError(response, -32601);
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void runsAToolThatRequiresATaskAsATask(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx, new Jobs())).compose(client -> client.call("tools/call", taskCall("required"))
        .compose(created -> client.call("tasks/result", byId(created.getJsonObject("task").getString("taskId"))))
        .map(result -> {
          assertEquals("required done", result.getJsonArray("content").getJsonObject(0).getString("text"));
          assertNoViolations(client);
          return result;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersAnOptionalToolDirectlyWhenNoTaskIsAskedFor(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx, new Jobs())).compose(client -> client.call("tools/call",
        new JsonObject().put("name", "quick")).map(result -> {
          assertFalse(result.containsKey("task"), result.encode());
          assertEquals("quick done", result.getJsonArray("content").getJsonObject(0).getString("text"));
          assertNoViolations(client);
          return result;
        })).onComplete(test.succeedingThenComplete());
  }

  /**
   * MUST: a receiver that did not declare the task capability processes the request normally, ignoring the task
   * metadata; before 2025-11-25 there is no capability to declare, so even a tool that requires tasks runs
   * directly.
   */
  @ParameterizedTest
  @ValueSource(strings = {"2025-03-26", "2025-06-18"})
  void ignoresTaskMetadataWhenTheCapabilityWasNotDeclared(String version, Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx, new Jobs()), version, new JsonObject()).compose(client ->
        client.call("tools/call", taskCall("quick")).compose(quick -> {
          assertFalse(quick.containsKey("task"), quick.encode());
          assertEquals("quick done", quick.getJsonArray("content").getJsonObject(0).getString("text"));
          return client.call("tools/call", new JsonObject().put("name", "required"));
        }).map(required -> {
          assertEquals("required done", required.getJsonArray("content").getJsonObject(0).getString("text"));
          assertNoViolations(client);
          return required;
        })).onComplete(test.succeedingThenComplete());
  }

  /** MUST, on 2025-11-25 itself: without a task-supporting tool the capability is not declared, so no -32601. */
  @Test
  void ignoresTaskMetadataOn20251125WhenTheCapabilityWasNotDeclared(Vertx vertx, VertxTestContext test) {
    open(vertx, directOnly(vertx)).compose(client -> client.call("tools/call", taskCall("direct")).map(result -> {
      assertFalse(result.containsKey("task"), result.encode());
      assertEquals("direct done", result.getJsonArray("content").getJsonObject(0).getString("text"));
      assertNoViolations(client);
      return result;
    })).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"tasks/get", "tasks/result", "tasks/list", "tasks/cancel"})
  void answersTaskMethodsWithMethodNotFoundBefore20251125(String method, Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx, new Jobs()), "2025-06-18", new JsonObject())
        .compose(client -> client.request(method, byId("whatever")).map(response -> {
          assertError(response, -32601);
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void refusesATaskParameterThatIsNotAnObject(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx, new Jobs())).compose(client -> client.request("tools/call",
        new JsonObject().put("name", "quick").put("task", "yes please")).map(response -> {
          assertError(response, -32602);
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  private static Map<String, JsonObject> byName(JsonArray tools) {
    Map<String, JsonObject> byName = new HashMap<>();
    tools.forEach(tool -> byName.put(((JsonObject) tool).getString("name"), (JsonObject) tool));
    return byName;
  }
}
