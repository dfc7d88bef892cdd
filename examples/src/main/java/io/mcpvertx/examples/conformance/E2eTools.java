package io.mcpvertx.examples.conformance;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Tools that no conformance scenario calls, for our own end-to-end tests (which no scenario's tool listing
 * minds): a call that streams progress long enough for a client to drop its stream and resume it.
 */
final class E2eTools {

  static final int DEFAULT_STEPS = 8;
  static final int DEFAULT_INTERVAL_MS = 250;

  private static final String SCHEMA = """
      {"type": "object",
       "properties": {
         "steps": {"type": "integer", "minimum": 1, "maximum": 50,
                   "description": "How many progress notifications to send (default 8)"},
         "intervalMs": {"type": "integer", "minimum": 10, "maximum": 1000,
                        "description": "The pause before each step, in milliseconds (default 250)"}
       }}
      """;

  private E2eTools() {
  }

  static void register(McpServer server) {
    // Each step is a timer on the session's event loop; the call runs on if the client drops its stream, so a
    // client that resumes with Last-Event-ID gets the steps it missed from the event store, then the rest live.
    server.tool(Tool.builder("test_streaming_progress")
            .description("Reports progress in steps spaced in time, then returns the request's progress token: "
                + "long enough to drop the call's stream and resume it")
            .inputSchema(new JsonObject(SCHEMA))
            .build(),
        (args, ctx) -> {
          int steps = args.getInteger("steps", DEFAULT_STEPS);
          long interval = args.getInteger("intervalMs", DEFAULT_INTERVAL_MS);
          Future<Void> run = Future.succeededFuture();
          for (int i = 1; i <= steps; i++) {
            int step = i;
            run = run.compose(v -> ctx.vertx().timer(interval)).map(v -> {
              ctx.progress(step, (double) steps, "Step " + step + " of " + steps);
              return null;
            });
          }
          return run.map(v -> ToolResult.text(steps + " steps done; progress token " + token(ctx)));
        });
  }

  private static String token(RequestContext ctx) {
    Object token = ctx.meta().getValue("progressToken");
    return token == null ? "none" : String.valueOf(token);
  }
}
