package io.mcpvertx.verticles;

import static io.mcpvertx.verticles.FeatureVerticles.LATEST;
import static io.mcpvertx.verticles.FeatureVerticles.assertNoViolations;
import static io.mcpvertx.verticles.FeatureVerticles.firstText;
import static io.mcpvertx.verticles.FeatureVerticles.toolNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.content.Content;
import io.mcpvertx.server.content.Icon;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolAnnotations;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.verticles.FeatureVerticles.LambdaTool;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class RemoteToolsTest {

  private static Future<JsonObject> callTool(McpTestClient client, String name, JsonObject arguments) {
    return client.call("tools/call", new JsonObject().put("name", name).put("arguments", arguments));
  }

  private static Future<JsonObject> callToolForError(McpTestClient client, String name) {
    return client.request("tools/call", new JsonObject().put("name", name)).map(response -> {
      assertTrue(response.containsKey("error"), response.encode());
      return response.getJsonObject("error");
    });
  }

  @Test
  void aToolVerticleDeployedAfterAttachIsListedAndCallable(Vertx vertx, VertxTestContext test) {
    FeatureVerticles.withRemote(vertx, FeatureVerticles.echo("remote-echo"))
        .compose(client -> toolNames(client)
            .compose(names -> {
              assertEquals(List.of("local-tool", "remote-echo"), names);
              return callTool(client, "remote-echo", new JsonObject().put("text", "h\u00e9llo"));
            })
            .map(result -> {
              assertEquals("h\u00e9llo", firstText(result));
              assertFalse(result.containsKey("isError"));
              assertNoViolations(client);
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aToolVerticleDeployedBeforeAttachIsFoundByDiscovery(Vertx vertx, VertxTestContext test) {
    McpServer server = FeatureVerticles.server(vertx);
    vertx.deployVerticle(FeatureVerticles.echo("early"))
        .compose(id -> FeatureVerticles.client(vertx, server))
        .compose(client -> FeatureVerticles.attachOn(client, vertx, server)
            .compose(remote -> client.awaitNotification("notifications/tools/list_changed"))
            .compose(changed -> toolNames(client))
            .compose(names -> {
              assertEquals(List.of("local-tool", "early"), names);
              return callTool(client, "early", new JsonObject().put("text", "found"));
            })
            .map(result -> {
              assertEquals("found", firstText(result));
              assertNoViolations(client);
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void argumentsAreValidatedByTheServerBeforeTheVerticleIsCalled(Vertx vertx, VertxTestContext test) {
    AtomicInteger calls = new AtomicInteger();
    LambdaTool tool = new LambdaTool(FeatureVerticles.echo("strict").tool(), (args, ctx) -> {
      calls.incrementAndGet();
      return Future.succeededFuture(ToolResult.text("called"));
    });
    FeatureVerticles.withRemote(vertx, tool)
        .compose(client -> callTool(client, "strict", new JsonObject().put("text", 42)).map(result -> {
          assertEquals(true, result.getBoolean("isError"));
          assertTrue(firstText(result).startsWith("Invalid arguments for tool strict"), firstText(result));
          assertEquals(0, calls.get());
          assertNoViolations(client);
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void structuredContentRoundTripsAndIsCheckedAgainstTheOutputSchema(Vertx vertx, VertxTestContext test) {
    JsonObject outputSchema = new JsonObject().put("type", "object")
        .put("properties", new JsonObject().put("sum", new JsonObject().put("type", "integer")))
        .put("required", new JsonArray().add("sum"));
    LambdaTool tool = new LambdaTool(Tool.builder("add").outputSchema(outputSchema).build(), (args, ctx) ->
        Future.succeededFuture(args.getBoolean("wrong", false)
            ? ToolResult.structured(new JsonObject().put("sum", "three"))
            : ToolResult.structured(new JsonObject().put("sum", 3))));
    FeatureVerticles.withRemote(vertx, tool)
        .compose(client -> callTool(client, "add", new JsonObject())
            .compose(result -> {
              assertEquals(new JsonObject().put("sum", 3), result.getJsonObject("structuredContent"));
              assertEquals("{\"sum\":3}", firstText(result));
              return client.request("tools/call", new JsonObject().put("name", "add")
                  .put("arguments", new JsonObject().put("wrong", true)));
            })
            .map(response -> {
              assertEquals(JsonRpcErrorCodes.INTERNAL_ERROR, response.getJsonObject("error").getInteger("code"));
              assertNoViolations(client);
              return response;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void anErrorResultAndImageContentRoundTrip(Vertx vertx, VertxTestContext test) {
    String png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    LambdaTool tool = new LambdaTool(Tool.builder("picture").build(), (args, ctx) -> Future.succeededFuture(
        args.getBoolean("fail", false) ? ToolResult.error("no picture today")
            : ToolResult.of(Content.text("a pixel"), Content.image(png, "image/png"))));
    FeatureVerticles.withRemote(vertx, tool)
        .compose(client -> callTool(client, "picture", new JsonObject())
            .compose(result -> {
              JsonArray content = result.getJsonArray("content");
              assertEquals(2, content.size());
              assertEquals(new JsonObject().put("type", "image").put("data", png).put("mimeType", "image/png"),
                  content.getJsonObject(1));
              assertFalse(result.containsKey("isError"));
              return callTool(client, "picture", new JsonObject().put("fail", true));
            })
            .map(result -> {
              assertEquals(true, result.getBoolean("isError"));
              assertEquals("no picture today", firstText(result));
              assertNoViolations(client);
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void theDefinitionIsListedAsTheVerticleDeclaresIt(Vertx vertx, VertxTestContext test) {
    Tool definition = Tool.builder("described").title("Described tool").description("Has everything")
        .inputSchema(new JsonObject().put("type", "object").put("properties",
            new JsonObject().put("q", new JsonObject().put("type", "string").put("description", "query"))))
        .outputSchema(new JsonObject().put("type", "object"))
        .annotations(new ToolAnnotations(null, true, false, true, false))
        .icon(new Icon("https://example.com/icon.png", "image/png", List.of("48x48"), "light"))
        .meta(new JsonObject().put("example.com/owner", "team"))
        .build();
    LambdaTool tool = new LambdaTool(definition, (args, ctx) -> Future.succeededFuture(
        ToolResult.structured(new JsonObject())));
    FeatureVerticles.withRemote(vertx, tool)
        .compose(client -> client.call("tools/list", null).map(list -> {
          assertEquals(definition.toJson(ProtocolVersion.LATEST), list.getJsonArray("tools").getJsonObject(1));
          assertNoViolations(client);
          return list;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void anMcpExceptionThrownRemotelyReachesTheClientUnchanged(Vertx vertx, VertxTestContext test) {
    JsonObject data = new JsonObject().put("uri", "file:///missing");
    LambdaTool tool = new LambdaTool(Tool.builder("picky").build(), (args, ctx) -> {
      throw new McpException(JsonRpcErrorCodes.RESOURCE_NOT_FOUND, "Resource not found: file:///missing", data);
    });
    FeatureVerticles.withRemote(vertx, tool)
        .compose(client -> callToolForError(client, "picky").map(error -> {
          assertEquals(new JsonObject().put("code", JsonRpcErrorCodes.RESOURCE_NOT_FOUND)
              .put("message", "Resource not found: file:///missing").put("data", data), error);
          assertNoViolations(client);
          return error;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aFailedFutureWithAnMcpExceptionKeepsItsCode(Vertx vertx, VertxTestContext test) {
    LambdaTool tool = new LambdaTool(Tool.builder("refuses").build(), (args, ctx) ->
        Future.failedFuture(McpException.invalidParams("Invalid params: not today")));
    FeatureVerticles.withRemote(vertx, tool)
        .compose(client -> callToolForError(client, "refuses").map(error -> {
          assertEquals(JsonRpcErrorCodes.INVALID_PARAMS, error.getInteger("code"));
          assertEquals("Invalid params: not today", error.getString("message"));
          assertNoViolations(client);
          return error;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aGenericExceptionBecomesAnInternalErrorWithoutItsDetails(Vertx vertx, VertxTestContext test) {
    LambdaTool tool = new LambdaTool(Tool.builder("buggy").build(), (args, ctx) -> {
      throw new IllegalStateException("secret connection string");
    });
    FeatureVerticles.withRemote(vertx, tool)
        .compose(client -> callToolForError(client, "buggy").map(error -> {
          assertEquals(JsonRpcErrorCodes.INTERNAL_ERROR, error.getInteger("code"));
          assertFalse(error.getString("message").contains("secret"), error.getString("message"));
          assertNoViolations(client);
          return error;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void resultsAndDefinitionsAreWrittenForTheSessionsRevision(Vertx vertx, VertxTestContext test) {
    LambdaTool tool = new LambdaTool(Tool.builder("modern").title("Modern tool")
        .outputSchema(new JsonObject().put("type", "object")).build(),
        (args, ctx) -> Future.succeededFuture(new ToolResult(List.of(), new JsonObject().put("n", 1), false, null)));
    McpServer server = FeatureVerticles.server(vertx);
    FeatureVerticles.client(vertx, server, "2025-03-26", new JsonObject())
        .compose(client -> FeatureVerticles.attachOn(client, vertx, server)
            .compose(remote -> vertx.deployVerticle(tool))
            .compose(id -> client.awaitNotification("notifications/tools/list_changed"))
            .compose(changed -> client.call("tools/list", null))
            .compose(list -> {
              JsonObject listed = list.getJsonArray("tools").getJsonObject(1);
              assertFalse(listed.containsKey("title"));
              assertFalse(listed.containsKey("outputSchema"));
              assertEquals("Modern tool", listed.getJsonObject("annotations").getString("title"));
              return callTool(client, "modern", new JsonObject());
            })
            .map(result -> {
              assertFalse(result.containsKey("structuredContent"));
              assertEquals("{\"n\":1}", firstText(result));
              assertNoViolations(client);
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }
}
