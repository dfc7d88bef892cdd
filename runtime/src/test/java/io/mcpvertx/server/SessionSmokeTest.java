package io.mcpvertx.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class SessionSmokeTest {

  @Test
  void servesAToolCallAfterInitialize(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).tool(Tool.builder("echo")
        .inputSchema(new JsonObject().put("type", "object").put("properties",
            new JsonObject().put("text", new JsonObject().put("type", "string"))).put("required",
            new io.vertx.core.json.JsonArray().add("text")))
        .build(), (args, ctx) -> Future.succeededFuture(ToolResult.text(args.getString("text"))));
    McpTestClient.inProcess(vertx, server).compose(client -> client.initialize("2025-11-25")
        .compose(init -> client.call("tools/list", null))
        .compose(list -> {
          assertEquals("echo", list.getJsonArray("tools").getJsonObject(0).getString("name"));
          return client.call("tools/call", new JsonObject().put("name", "echo")
              .put("arguments", new JsonObject().put("text", "hi")));
        })
        .map(result -> {
          assertEquals("hi", result.getJsonArray("content").getJsonObject(0).getString("text"));
          assertTrue(client.violations().isEmpty(), client.violations().toString());
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }
}
