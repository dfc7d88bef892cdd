package io.mcpvertx.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.function.Function;

/**
 * A tool named {@code ask} that makes server-to-client requests through its {@link RequestContext} and reports
 * the outcome as JSON text: the answer, or (with {@code isError}) the failure's code, message and data.
 */
final class AskTool {

  static final String NAME = "ask";

  private AskTool() {
  }

  static McpServer server(Vertx vertx, McpServerOptions options, Function<RequestContext, Future<?>> action) {
    return McpServer.create(vertx, options).tool(Tool.builder(NAME).build(),
        (args, ctx) -> action.apply(ctx).map(AskTool::success).otherwise(AskTool::failure));
  }

  static McpServer server(Vertx vertx, Function<RequestContext, Future<?>> action) {
    return server(vertx, new McpServerOptions(), action);
  }

  private static ToolResult success(Object answer) {
    return ToolResult.text(new JsonObject().put("answer", answer).encode());
  }

  private static ToolResult failure(Throwable failure) {
    JsonObject json = new JsonObject().put("type", failure.getClass().getSimpleName())
        .put("message", failure.getMessage());
    if (failure instanceof McpException mcp) {
      json.put("code", mcp.code()).put("data", mcp.error().data());
    }
    return ToolResult.error(json.encode());
  }

  static JsonObject call() {
    return new JsonObject().put("name", NAME);
  }

  /** The answer the tool reported; fails the test if it reported a failure. */
  static Object answer(JsonObject result) {
    JsonObject outcome = outcome(result);
    assertTrue(outcome.containsKey("answer") && !result.getBoolean("isError", false),
        () -> "expected an answer, got " + result.encode());
    return outcome.getValue("answer");
  }

  /** The failure the tool reported (type, message, code, data); fails the test if it got an answer. */
  static JsonObject failure(JsonObject result) {
    assertTrue(result.getBoolean("isError", false), () -> "expected a failure, got " + result.encode());
    return outcome(result);
  }

  private static JsonObject outcome(JsonObject result) {
    return new JsonObject(result.getJsonArray("content").getJsonObject(0).getString("text"));
  }
}
