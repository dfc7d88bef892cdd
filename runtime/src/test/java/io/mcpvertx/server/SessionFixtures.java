package io.mcpvertx.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.completion.Completion;
import io.mcpvertx.server.content.Icon;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptArgument;
import io.mcpvertx.server.prompts.PromptMessage;
import io.mcpvertx.server.prompts.PromptResult;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceResult;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** Servers and assertions shared by the session tests. */
final class SessionFixtures {

  static final List<String> VERSIONS = List.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25");
  static final String RESOURCE_URI = "memo://greeting";
  static final String INSTRUCTIONS = "Call echo to hear yourself.";

  private SessionFixtures() {
  }

  static Tool echoTool() {
    return Tool.builder("echo").title("Echo")
        .inputSchema(new JsonObject().put("type", "object")
            .put("properties", new JsonObject().put("text", new JsonObject().put("type", "string")))
            .put("required", new JsonArray().add("text")))
        .build();
  }

  static McpServer echoServer(Vertx vertx, McpServerOptions options) {
    return McpServer.create(vertx, options)
        .tool(echoTool(), (args, ctx) -> Future.succeededFuture(ToolResult.text(args.getString("text"))));
  }

  /** Everything registered: a tool, a resource, a prompt and a completion for its argument. */
  static McpServer fullServer(Vertx vertx) {
    McpServerOptions options = new McpServerOptions()
        .setServerInfo(new ServerInfo("full", "2.0.0", "Full Server", "Offers one of everything",
            "https://example.com", List.of(Icon.of("https://example.com/icon.png"))))
        .setInstructions(INSTRUCTIONS);
    return echoServer(vertx, options)
        .resource(Resource.of(RESOURCE_URI, "greeting", "text/plain"),
            (uri, ctx) -> Future.succeededFuture(ResourceResult.text(uri, "text/plain", "hello")))
        .prompt(Prompt.of("greet", "Greets someone", PromptArgument.required("name", "Who")),
            (args, ctx) -> Future.succeededFuture(PromptResult.of(PromptMessage.user("Hello " + args.get("name")))))
        .promptCompletion("greet", "name",
            (request, ctx) -> Future.succeededFuture(Completion.matching(List.of("Ada", "Alan"), request.value())));
  }

  /** Hands out futures the test completes when it wants the tool call to finish. */
  static final class Gate {
    final List<Promise<ToolResult>> calls = new ArrayList<>();
    final List<String> cancellations = new ArrayList<>();

    McpServer register(McpServer server) {
      return server.tool(Tool.builder("wait").build(), (args, ctx) -> {
        Promise<ToolResult> promise = Promise.promise();
        calls.add(promise);
        ctx.onCancel(reason -> cancellations.add(String.valueOf(reason)));
        return promise.future();
      });
    }

    void releaseAll() {
      calls.forEach(p -> p.tryComplete(ToolResult.text("done")));
    }
  }

  static JsonObject waitCall() {
    return new JsonObject().put("name", "wait");
  }

  /** The error member of a response, failing if it is a result. */
  static JsonObject errorOf(JsonObject response) {
    assertTrue(response.containsKey("error"), () -> "expected an error: " + response.encode());
    return response.getJsonObject("error");
  }

  static void assertError(JsonObject response, int code) {
    assertEquals(code, errorOf(response).getInteger("code"), response.encode());
  }

  static void assertError(JsonObject response, int code, Object id) {
    assertError(response, code);
    assertTrue(response.containsKey("id"), () -> "no id member: " + response.encode());
    assertEquals(id, response.getValue("id"), response.encode());
  }

  /** The one frame that answered nothing of ours since the test began (e.g. an error with id null). */
  static JsonObject onlyUnmatched(McpTestClient client) {
    assertEquals(1, client.unmatched().size(), () -> "unmatched frames: " + client.unmatched());
    return assertInstanceOf(JsonObject.class, client.unmatched().get(0));
  }

  static void assertNoViolations(McpTestClient client) {
    assertTrue(client.violations().isEmpty(), () -> "schema violations: " + client.violations());
  }
}
