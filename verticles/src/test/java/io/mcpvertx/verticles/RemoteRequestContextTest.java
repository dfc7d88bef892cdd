package io.mcpvertx.verticles;

import static io.mcpvertx.verticles.FeatureVerticles.LATEST;
import static io.mcpvertx.verticles.FeatureVerticles.assertNoViolations;
import static io.mcpvertx.verticles.FeatureVerticles.firstText;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.client.SamplingRequest;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.verticles.FeatureVerticles.LambdaTool;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class RemoteRequestContextTest {

  private static final JsonObject NAME_FORM = new JsonObject().put("type", "object").put("properties",
      new JsonObject().put("name", new JsonObject().put("type", "string")));

  private static Future<JsonObject> callTool(McpTestClient client, String name, JsonObject meta) {
    JsonObject params = new JsonObject().put("name", name);
    if (meta != null) {
      params.put("_meta", meta);
    }
    return client.call("tools/call", params);
  }

  @Test
  void progressAndLogsFromTheRemoteHandlerReachTheClient(Vertx vertx, VertxTestContext test) {
    LambdaTool tool = new LambdaTool(Tool.builder("busy").build(), (args, ctx) -> {
      ctx.progress(1, 3d, "one");
      ctx.log(LoggingLevel.WARNING, "remote", new JsonObject().put("step", 1));
      ctx.progress(2, null, null);
      return Future.succeededFuture(ToolResult.text("busy done"));
    });
    FeatureVerticles.withRemote(vertx, tool)
        .compose(client -> callTool(client, "busy", new JsonObject().put("progressToken", "p-1")).map(result -> {
          assertEquals("busy done", firstText(result));
          List<JsonObject> progress = client.notifications("notifications/progress");
          assertEquals(2, progress.size());
          assertEquals(new JsonObject().put("progressToken", "p-1").put("progress", 1.0).put("total", 3.0)
              .put("message", "one"), progress.get(0).getJsonObject("params"));
          assertEquals(new JsonObject().put("progressToken", "p-1").put("progress", 2.0),
              progress.get(1).getJsonObject("params"));
          List<JsonObject> logs = client.notifications("notifications/message");
          assertEquals(1, logs.size());
          assertEquals(new JsonObject().put("level", "warning").put("logger", "remote")
              .put("data", new JsonObject().put("step", 1)), logs.get(0).getJsonObject("params"));
          assertNoViolations(client);
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void theHandlerSeesTheCallersContext(Vertx vertx, VertxTestContext test) {
    LambdaTool tool = new LambdaTool(Tool.builder("who").build(), (args, ctx) -> Future.succeededFuture(
        ToolResult.structured(new JsonObject()
            .put("sessionId", ctx.sessionId())
            .put("requestId", ctx.requestId().wireValue())
            .put("version", ctx.protocolVersion().id())
            .put("client", ctx.client().name())
            .put("trace", ctx.meta().getString("example.com/trace"))
            .put("principal", ctx.principal().isPresent()))));
    FeatureVerticles.withRemote(vertx, tool)
        .compose(client -> {
          long id = client.nextRequestId();
          return callTool(client, "who", new JsonObject().put("example.com/trace", "t-42")).map(result -> {
            assertEquals(new JsonObject().put("sessionId", client.session().id()).put("requestId", id)
                    .put("version", LATEST).put("client", "mcp-test-client").put("trace", "t-42")
                    .put("principal", false),
                result.getJsonObject("structuredContent"));
            assertNoViolations(client);
            return result;
          });
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void anElicitationFromTheRemoteHandlerReachesTheClientAndItsAnswerComesBack(Vertx vertx, VertxTestContext test) {
    LambdaTool tool = new LambdaTool(Tool.builder("ask").build(), (args, ctx) ->
        ctx.elicit(ElicitRequest.form("Your name?", NAME_FORM))
            .map(answer -> ToolResult.text(answer.action() + " " + answer.content().getString("name"))));
    FeatureVerticles.withRemote(vertx, tool, new JsonObject().put("elicitation", new JsonObject()))
        .compose(client -> {
          client.onRequest("elicitation/create", params -> Future.succeededFuture(new JsonObject()
              .put("action", "accept").put("content", new JsonObject().put("name", "Ada"))));
          return callTool(client, "ask", null).map(result -> {
            assertEquals("accept Ada", firstText(result));
            assertEquals(1, client.serverRequests().size());
            assertEquals(new JsonObject().put("message", "Your name?").put("requestedSchema", NAME_FORM),
                client.serverRequests().get(0).getJsonObject("params"));
            assertNoViolations(client);
            return result;
          });
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void samplingAndRootsFromTheRemoteHandlerReachTheClient(Vertx vertx, VertxTestContext test) {
    LambdaTool tool = new LambdaTool(Tool.builder("think").build(), (args, ctx) ->
        ctx.sample(SamplingRequest.prompt("2+2?", 10))
            .compose(sampled -> ctx.roots().map(roots -> ToolResult.text(sampled.text() + " in "
                + roots.get(0).uri() + " (" + roots.get(0).name() + ")"))));
    JsonObject capabilities = new JsonObject().put("sampling", new JsonObject()).put("roots", new JsonObject());
    FeatureVerticles.withRemote(vertx, tool, capabilities)
        .compose(client -> {
          client.onRequest("sampling/createMessage", params -> Future.succeededFuture(new JsonObject()
              .put("role", "assistant").put("content", new JsonObject().put("type", "text").put("text", "4"))
              .put("model", "test-model").put("stopReason", "endTurn")));
          client.onRequest("roots/list", params -> Future.succeededFuture(new JsonObject().put("roots",
              new JsonArray().add(new JsonObject().put("uri", "file:///work").put("name", "work")))));
          return callTool(client, "think", null).map(result -> {
            assertEquals("4 in file:///work (work)", firstText(result));
            assertNoViolations(client);
            return result;
          });
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aMissingClientCapabilityReachesTheRemoteHandlerWithItsCodeAndData(Vertx vertx, VertxTestContext test) {
    LambdaTool tool = new LambdaTool(Tool.builder("ask").build(), (args, ctx) ->
        ctx.elicit(ElicitRequest.form("Your name?", NAME_FORM)).map(answer -> ToolResult.text("asked")));
    FeatureVerticles.withRemote(vertx, tool)
        .compose(client -> client.request("tools/call", new JsonObject().put("name", "ask")).map(response -> {
          JsonObject error = response.getJsonObject("error");
          assertEquals(JsonRpcErrorCodes.CLIENT_CAPABILITY_MISSING, error.getInteger("code"));
          assertEquals(new JsonObject().put("elicitation", new JsonObject()),
              error.getJsonObject("data").getJsonObject("requiredCapabilities"));
          assertEquals(List.of(), client.serverRequests());
          assertNoViolations(client);
          return response;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aClientThatDoesNotAnswerInTimeFailsTheRemoteRequestWithATimeout(Vertx vertx, VertxTestContext test) {
    LambdaTool tool = new LambdaTool(Tool.builder("ask").build(), (args, ctx) ->
        ctx.elicit(ElicitRequest.form("Your name?", NAME_FORM)).map(answer -> ToolResult.text("answered"))
            .recover(failure -> Future.succeededFuture(ToolResult.error("elicitation failed with "
                + ((McpException) failure).code()))));
    McpServerOptions options = new McpServerOptions().setServerRequestTimeoutMs(20);
    FeatureVerticles.withRemote(vertx, FeatureVerticles.server(vertx, options), tool,
            new JsonObject().put("elicitation", new JsonObject()))
        .compose(client -> {
          client.onRequest("elicitation/create", params -> Future.succeededFuture(null));
          return callTool(client, "ask", null).map(result -> {
            assertEquals("elicitation failed with " + JsonRpcErrorCodes.REQUEST_TIMEOUT, firstText(result));
            assertNoViolations(client);
            return result;
          });
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void elicitationCompleteIsRelayedToTheClient(Vertx vertx, VertxTestContext test) {
    LambdaTool tool = new LambdaTool(Tool.builder("done").build(), (args, ctx) -> {
      ctx.elicitationComplete("el-7");
      return Future.succeededFuture(ToolResult.text("done"));
    });
    FeatureVerticles.withRemote(vertx, tool, new JsonObject().put("elicitation",
            new JsonObject().put("url", new JsonObject())))
        .compose(client -> callTool(client, "done", null)
            .compose(result -> client.awaitNotification("notifications/elicitation/complete"))
            .map(notification -> {
              assertEquals("el-7", notification.getJsonObject("params").getString("elicitationId"));
              assertNoViolations(client);
              return notification;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void clientCancellationReachesTheRemoteHandler(Vertx vertx, VertxTestContext test) {
    Promise<Void> started = Promise.promise();
    Promise<String> cancelled = Promise.promise();
    LambdaTool tool = new LambdaTool(Tool.builder("forever").build(), (args, ctx) -> {
      ctx.onCancel(reason -> cancelled.tryComplete(reason + ", cancelled=" + ctx.isCancelled()));
      started.complete();
      return Promise.<ToolResult>promise().future();
    });
    FeatureVerticles.withRemote(vertx, tool)
        .compose(client -> {
          long id = client.nextRequestId();
          client.request("tools/call", new JsonObject().put("name", "forever"));
          return started.future()
              .compose(v -> {
                client.notify("notifications/cancelled", new JsonObject().put("requestId", id).put("reason", "user"));
                return cancelled.future();
              })
              .map(reason -> {
                assertEquals("user, cancelled=true", reason);
                assertTrue(client.unmatched().isEmpty());
                assertNoViolations(client);
                return reason;
              });
        })
        .onComplete(test.succeedingThenComplete());
  }
}
