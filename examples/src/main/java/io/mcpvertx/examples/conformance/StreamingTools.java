package io.mcpvertx.examples.conformance;

import static io.mcpvertx.examples.conformance.ConformanceFixtures.LOGGER;
import static io.mcpvertx.examples.conformance.ContentTools.noArgs;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;

/**
 * Tools that send notifications while they run, spaced by timers on the session's event loop (never by
 * sleeping): log messages, progress, and the reconnection tool of the SSE polling scenario.
 */
final class StreamingTools {

  /** The pause between two notifications of one call. */
  static final long STEP_DELAY_MS = 50;

  /** How long {@code test_reconnection} takes, so its result arrives while the client is away or coming back. */
  static final long RECONNECTION_DELAY_MS = 300;

  /** The retry {@code test_reconnection} gives the client whose stream it closes. */
  static final long RECONNECTION_RETRY_MS = 200;

  static final String RECONNECTION_TEXT = "Reconnection test completed successfully. If you received this, the "
      + "client properly reconnected after stream closure.";

  private StreamingTools() {
  }

  static void register(McpServer server) {
    // tools-call-with-logging counts at least three notifications/message before the response.
    server.tool(noArgs("test_tool_with_logging", "Tests tool that emits log messages during execution"),
        (args, ctx) -> {
          ctx.log(LoggingLevel.INFO, LOGGER, "Tool execution started");
          return pause(ctx)
              .compose(v -> {
                ctx.log(LoggingLevel.INFO, LOGGER, "Tool processing data");
                return pause(ctx);
              })
              .map(v -> {
                ctx.log(LoggingLevel.INFO, LOGGER, "Tool execution completed");
                return ToolResult.text("Tool with logging executed successfully");
              });
        });

    // The runtime echoes the request's progress token as it came (the number 1 from 0.1.16, the string
    // "progress-test-1" from alpha) and sends nothing when the request has none.
    server.tool(noArgs("test_tool_with_progress", "Tests tool that reports progress notifications"),
        (args, ctx) -> {
          step(ctx, 0);
          return pause(ctx)
              .compose(v -> {
                step(ctx, 50);
                return pause(ctx);
              })
              .map(v -> {
                step(ctx, 100);
                Object token = ctx.meta().getValue("progressToken");
                return ToolResult.text(token == null ? "No progress token was sent" : String.valueOf(token));
              });
        });

    // SEP-1699: the call's SSE stream is closed after its priming event (with a retry field), and the result
    // reaches the client on the stream it resumes with GET and Last-Event-ID. Clients that cannot resume (before
    // 2025-11-25, or not over Streamable HTTP) get it on the same stream.
    server.tool(noArgs("test_reconnection",
        "Tests SSE stream disconnection and client reconnection (SEP-1699)"),
        (args, ctx) -> {
          ctx.closeSseStream(RECONNECTION_RETRY_MS);
          return ctx.vertx().timer(RECONNECTION_DELAY_MS).map(v -> ToolResult.text(RECONNECTION_TEXT));
        });
  }

  private static Future<Void> pause(RequestContext ctx) {
    return ctx.vertx().timer(STEP_DELAY_MS).mapEmpty();
  }

  private static void step(RequestContext ctx, int done) {
    ctx.progress(done, 100.0, "Completed step " + done + " of 100");
  }
}
