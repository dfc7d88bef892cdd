package io.mcpvertx.verticles.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcCodecOptions;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class StdioServerTest {

  private static final String LATEST = "2025-11-25";
  private static final StdioServerOptions OPTIONS = new StdioServerOptions().setRedirectSystemOut(false);

  private static McpServer server(Vertx vertx, McpServerOptions options) {
    return McpServer.create(vertx, options)
        .tool(Tool.builder("echo").inputSchema(new JsonObject().put("type", "object")
                .put("properties", new JsonObject().put("text", new JsonObject().put("type", "string")))).build(),
            (args, ctx) -> Future.succeededFuture(ToolResult.text(args.getString("text", ""))))
        .tool(Tool.builder("work").build(), (args, ctx) -> {
          ctx.progress(1, 2d, "started");
          ctx.log(LoggingLevel.INFO, "work", "working");
          ctx.progress(2, 2d, "finished");
          return Future.succeededFuture(ToolResult.text("worked"));
        });
  }

  private static McpServer server(Vertx vertx) {
    return server(vertx, new McpServerOptions());
  }

  /** Asserts that the output is a sequence of newline-terminated JSON objects or arrays, and nothing else. */
  static void assertOnlyJsonLines(StdioPipes.LineOutput out) {
    String text = out.text();
    assertTrue(text.isEmpty() || text.endsWith("\n"), "the output ends in the middle of a line");
    for (String line : out.lines()) {
      Object parsed = Json.decodeValue(line);
      assertTrue(parsed instanceof JsonObject || parsed instanceof JsonArray, line);
    }
  }

  private static String firstText(JsonObject result) {
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }

  @Test
  void servesAFullExchangeUntilEndOfInput(Vertx vertx, VertxTestContext test) {
    StdioPipes pipes = new StdioPipes();
    Future<Void> served = StdioServer.create(vertx, server(vertx), OPTIONS).serve(pipes.in, pipes.out);
    pipes.client(vertx)
        .compose(client -> client.initialize(LATEST)
            .compose(init -> client.call("tools/list", null))
            .compose(list -> {
              assertEquals(2, list.getJsonArray("tools").size());
              return client.call("tools/call", new JsonObject().put("name", "work")
                  .put("_meta", new JsonObject().put("progressToken", 5)));
            })
            .compose(result -> {
              assertEquals("worked", firstText(result));
              assertEquals(2, client.notifications("notifications/progress").size());
              assertEquals("working", client.notifications("notifications/message").get(0)
                  .getJsonObject("params").getString("data"));
              return client.call("tools/call", new JsonObject().put("name", "echo")
                  .put("arguments", new JsonObject().put("text", "h\u00e9llo \u2603")));
            })
            .compose(result -> {
              assertEquals("h\u00e9llo \u2603", firstText(result));
              return client.close();
            })
            .compose(v -> served)
            .map(v -> client))
        .onComplete(test.succeeding(client -> test.verify(() -> {
          assertEquals(List.of(), client.violations());
          assertEquals(List.of(), client.unmatched());
          assertOnlyJsonLines(pipes.out);
          test.completeNow();
        })));
  }

  @Test
  void answersInvalidJsonWithAParseErrorAndKeepsServing(Vertx vertx, VertxTestContext test) {
    StdioPipes pipes = new StdioPipes();
    StdioServer.create(vertx, server(vertx), OPTIONS).serve(pipes.in, pipes.out);
    pipes.client(vertx)
        .compose(client -> client.initialize(LATEST).compose(init -> {
          client.send(Buffer.buffer("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "));
          return client.call("tools/call", new JsonObject().put("name", "echo")
              .put("arguments", new JsonObject().put("text", "still here")));
        }).map(result -> {
          assertEquals("still here", firstText(result));
          return client;
        }))
        .onComplete(test.succeeding(client -> test.verify(() -> {
          assertEquals(1, client.unmatched().size());
          JsonObject error = assertInstanceOf(JsonObject.class, client.unmatched().get(0));
          assertTrue(error.containsKey("id"));
          assertNull(error.getValue("id"));
          assertEquals(-32700, error.getJsonObject("error").getInteger("code"));
          assertEquals(List.of(), client.violations());
          pipes.in.end();
          test.completeNow();
        })));
  }

  @Test
  void answersAnOversizeLineWithInvalidRequestAndKeepsServing(Vertx vertx, VertxTestContext test) {
    McpServerOptions options = new McpServerOptions()
        .setCodecOptions(new JsonRpcCodecOptions().setMaxMessageBytes(1024));
    StdioPipes pipes = new StdioPipes();
    StdioServer.create(vertx, server(vertx, options), OPTIONS).serve(pipes.in, pipes.out);
    String oversize = new JsonObject().put("jsonrpc", "2.0").put("id", 99).put("method", "tools/call")
        .put("params", new JsonObject().put("name", "echo")
            .put("arguments", new JsonObject().put("text", "x".repeat(4000)))).encode();
    pipes.client(vertx)
        .compose(client -> client.initialize(LATEST).compose(init -> {
          // Written in pieces, as a pipe delivers a long line.
          for (int i = 0; i < oversize.length(); i += 500) {
            pipes.in.write(oversize.substring(i, Math.min(oversize.length(), i + 500)));
          }
          pipes.in.write("\n");
          return client.call("tools/call", new JsonObject().put("name", "echo")
              .put("arguments", new JsonObject().put("text", "after")));
        }).map(result -> {
          assertEquals("after", firstText(result));
          return client;
        }))
        .onComplete(test.succeeding(client -> test.verify(() -> {
          assertEquals(1, client.unmatched().size());
          JsonObject error = (JsonObject) client.unmatched().get(0);
          assertNull(error.getValue("id"));
          assertEquals(-32600, error.getJsonObject("error").getInteger("code"));
          assertEquals(List.of(), client.violations());
          pipes.in.end();
          test.completeNow();
        })));
  }

  @Test
  void answersABatchOn20250326AsOneJsonArrayLine(Vertx vertx, VertxTestContext test) {
    StdioPipes pipes = new StdioPipes();
    StdioServer.create(vertx, server(vertx), OPTIONS).serve(pipes.in, pipes.out);
    JsonArray batch = new JsonArray()
        .add(new JsonObject().put("jsonrpc", "2.0").put("id", 10).put("method", "tools/list"))
        .add(new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/progress")
            .put("params", new JsonObject().put("progressToken", "t").put("progress", 1)))
        .add(new JsonObject().put("jsonrpc", "2.0").put("id", 11).put("method", "tools/call")
            .put("params", new JsonObject().put("name", "echo").put("arguments", new JsonObject().put("text", "b"))));
    pipes.client(vertx)
        .compose(client -> client.initialize("2025-03-26").compose(init -> client.sendBatch(batch)).map(answer -> {
          JsonArray responses = assertInstanceOf(JsonArray.class, answer);
          assertEquals(2, responses.size());
          return client;
        }))
        .onComplete(test.succeeding(client -> test.verify(() -> {
          String batchLine = pipes.out.lines().stream().filter(l -> l.startsWith("[")).findFirst().orElseThrow();
          JsonArray responses = new JsonArray(batchLine);
          assertEquals(2, responses.size());
          assertEquals(List.of(), client.violations());
          assertOnlyJsonLines(pipes.out);
          pipes.in.end();
          test.completeNow();
        })));
  }
}
