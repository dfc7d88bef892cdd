package io.mcpvertx.verticles.http;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The tools the HTTP tests call. {@code gated} stops half-way until the test opens its gate, so a test decides
 * exactly when the rest of a streamed response is produced.
 */
final class TestTools {

  /** Completed by the test to let {@code gated} go on. */
  final Promise<Void> gate = Promise.promise();
  /** Completed when {@code gated} has sent its first progress notification and waits at the gate. */
  final Promise<Void> reachedGate = Promise.promise();
  /** What {@code handover} was told when it asked to close its stream. */
  final Promise<Boolean> handedOver = Promise.promise();
  /** Set if {@code gated} was ever told its request was cancelled. */
  final AtomicBoolean gatedCancelled = new AtomicBoolean();
  /** How many times {@code gated} started. */
  final AtomicInteger gatedRuns = new AtomicInteger();

  private static Tool tool(String name, String description) {
    return Tool.builder(name).description(description).build();
  }

  TestTools register(McpServer server) {
    server.tool(tool("echo", "Returns its text argument"), (args, ctx) ->
        Future.succeededFuture(ToolResult.text(args.getString("text", ""))));
    server.tool(tool("progress", "Sends count progress notifications, then answers"), (args, ctx) -> {
      int count = args.getInteger("count", 3);
      for (int i = 1; i <= count; i++) {
        ctx.progress(i, (double) count, "step " + i);
      }
      return Future.succeededFuture(ToolResult.text("done"));
    });
    server.tool(tool("gated", "Sends progress 1, waits for the test, sends progress 2 and 3, answers"),
        (args, ctx) -> {
          gatedRuns.incrementAndGet();
          ctx.onCancel(reason -> gatedCancelled.set(true));
          ctx.progress(1, 3.0, "before the gate");
          reachedGate.tryComplete();
          return gate.future().map(v -> {
            ctx.progress(2, 3.0, "after the gate");
            ctx.progress(3, 3.0, "last");
            return ToolResult.text("released");
          });
        });
    server.tool(tool("waits", "Sends nothing until the test opens the gate, then answers"), (args, ctx) -> {
      reachedGate.tryComplete();
      return gate.future().map(v -> ToolResult.text("waited"));
    });
    server.tool(tool("handover", "Asks the transport to close its stream (retry 321 ms), sends progress 1, waits "
        + "for the test, answers"), (args, ctx) -> {
          handedOver.tryComplete(ctx.closeSseStream(321));
          ctx.progress(1, null, "after the handover");
          return gate.future().map(v -> ToolResult.text("handed over"));
        });
    server.tool(tool("ask", "Asks the user for a name through the client and answers with it"), (args, ctx) ->
        ctx.elicit(ElicitRequest.form("Your name?", new JsonObject().put("type", "object")
                .put("properties", new JsonObject().put("name", new JsonObject().put("type", "string")))))
            .map(answer -> ToolResult.text(answer.accepted() ? "hello " + answer.content().getString("name")
                : answer.action())));
    server.tool(tool("ticker", "Sends progress every millisecond until cancelled; never answers"), (args, ctx) -> {
      Promise<ToolResult> never = Promise.promise();
      double[] n = {0};
      long timer = ctx.vertx().setPeriodic(1, t -> ctx.progress(++n[0], null, null));
      ctx.onCancel(reason -> ctx.vertx().cancelTimer(timer));
      return never.future();
    });
    server.tool(tool("flood", "Logs once, waits for the test, then sends count log messages of size characters "
        + "each and answers"), (args, ctx) -> {
          int count = args.getInteger("count");
          String filler = "x".repeat(args.getInteger("size"));
          ctx.log(LoggingLevel.INFO, "flood", "before the gate");
          return gate.future().map(v -> {
            for (int i = 0; i < count; i++) {
              ctx.log(LoggingLevel.INFO, "flood", new JsonObject().put("n", i).put("filler", filler));
            }
            return ToolResult.text("flooded");
          });
        });
    return this;
  }
}
