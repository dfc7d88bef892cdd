package io.mcpvertx.annotations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Task support declared on an annotated tool behaves as the builder's on both task wires. */
@ExtendWith(VertxExtension.class)
class AnnotatedTasksTest {

  public static class Jobs {
    @McpTool(description = "A report, as a task when the client can take one", taskSupport = TaskSupport.OPTIONAL)
    public Future<String> report(String topic, RequestContext ctx) {
      return ctx.vertx().timer(20).map(t -> "report on " + topic);
    }

    @McpTool(description = "Quick unless slow", taskSupport = TaskSupport.OPTIONAL, taskAfterMs = 60_000)
    public String quick() {
      return "quick";
    }

    @McpTool(description = "Only as a task", taskSupport = TaskSupport.REQUIRED, blocking = true)
    public String required() {
      return "done";
    }
  }

  private McpServer server;

  @BeforeEach
  void setUp(Vertx vertx) {
    server = McpServer.create(vertx);
    AnnotatedFeatures.register(server, new Jobs());
  }

  @Test
  void definitionsCarryTheTaskSupport() {
    JsonObject tools = new JsonObject();
    AnnotatedFeatures.of(new Jobs()).tools().forEach(t -> tools.put(t.name(), t.toJson(ProtocolVersion.LATEST)));
    assertEquals("optional", tools.getJsonObject("report").getJsonObject("execution").getString("taskSupport"));
    assertEquals("required", tools.getJsonObject("required").getJsonObject("execution").getString("taskSupport"));
    Tool quick = AnnotatedFeatures.of(new Jobs()).tools().stream().filter(t -> t.name().equals("quick"))
        .findFirst().orElseThrow();
    assertEquals(60_000, quick.execution().promoteAfterMs());
  }

  @Test
  void runsAsA20251125Task(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, server).compose(client -> client.initialize("2025-11-25")
        .compose(init -> client.call("tools/call", new JsonObject().put("name", "report")
            .put("arguments", new JsonObject().put("topic", "tides")).put("task", new JsonObject())))
        .map(created -> created.getJsonObject("task").getString("taskId"))
        .compose(id -> awaitCompleted(client, id)
            .compose(done -> client.call("tasks/result", new JsonObject().put("taskId", id))))
        .map(result -> {
          client.assertNoViolations();
          return result;
        }))
        .onComplete(test.succeeding(result -> test.verify(() -> {
          assertEquals("report on tides", Wires.text(result));
          test.completeNow();
        })));
  }

  private static Future<JsonObject> awaitCompleted(McpTestClient client, String id) {
    return client.call("tasks/get", new JsonObject().put("taskId", id)).compose(task ->
        "completed".equals(task.getString("status")) ? Future.succeededFuture(task)
            : client.context().owner().timer(5).compose(t -> awaitCompleted(client, id)));
  }

  @Test
  void runsAsAnExtensionTaskAndAnswersAQuickOneDirectly(Vertx vertx, VertxTestContext test) {
    StatelessTestClient client = StatelessTestClient.engine(vertx, server);
    client.request("tools/call", new JsonObject().put("name", "required"))
        .capabilities(StatelessTestClient.WITH_TASKS).send()
        .map(x -> x.task().getString("taskId"))
        .compose(id -> client.awaitStatus(id, null, "completed"))
        .compose(task -> client.request("tools/call", new JsonObject().put("name", "quick"))
            .capabilities(StatelessTestClient.WITH_TASKS).send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          assertEquals("quick", Wires.text(x.complete()));
          assertFalse(x.complete().containsKey("task"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }
}
