package io.mcpvertx.examples.conformance;

import static io.mcpvertx.examples.conformance.ConformanceFixtures.LOGGER;
import static io.mcpvertx.examples.conformance.ContentTools.noArgs;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.client.SamplingRequest;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The diagnostic tools of the 2026-07-28 scenarios {@code server-stateless} (SEP-2575) and
 * {@code http-custom-header-server-validation} (SEP-2243). They are ordinary tools, listed and callable over
 * both generations; what they show depends on the runtime, not on the handler:
 * <ul>
 *   <li>{@code test_missing_capability} samples, so a client that did not declare {@code sampling} gets -32021
 *       with {@code requiredCapabilities: {sampling: {}}};</li>
 *   <li>{@code test_streaming_elicitation} reports progress and then elicits; over 2026-07-28 the question comes
 *       back as an {@code input_required} result, never as a request on the response stream;</li>
 *   <li>{@code test_logging_tool} logs; the runtime sends the log only when the request asked for one
 *       ({@code _meta["io.modelcontextprotocol/logLevel"]}, or {@code logging/setLevel} in a session);</li>
 *   <li>the two triggers re-publish a tool or a prompt, which tells open {@code subscriptions/listen} streams
 *       (and sessions) that the list changed, without changing what is listed;</li>
 *   <li>{@code test_custom_header} has an {@code x-mcp-header} argument, which 2026-07-28 HTTP clients mirror in an
 *       {@code Mcp-Param-Region} header that the runtime checks against the body.</li>
 * </ul>
 */
final class StatelessDiagnosticTools {

  static final String TRIGGER_TOOL_CHANGE = "test_trigger_tool_change";

  private StatelessDiagnosticTools() {
  }

  static void register(McpServer server) {
    server.tool(noArgs("test_missing_capability", "Needs the client's sampling capability; answers Success"),
        (args, ctx) -> ctx.sample("capability_probe", SamplingRequest.prompt("Reply with OK", 10))
            .map(answer -> ToolResult.text("Success")));

    server.tool(noArgs("test_streaming_elicitation", "Reports progress, then asks the user to confirm"),
        (args, ctx) -> {
          ctx.progress(1, 2.0, "Asking the user");
          return ctx.elicit("streaming_confirm", ElicitRequest.form("Continue streaming?", new JsonObject()
                  .put("type", "object")
                  .put("properties", new JsonObject().put("proceed",
                      new JsonObject().put("type", "boolean").put("description", "Whether to continue")))))
              .map(answer -> {
                ctx.progress(2, 2.0, "Answered");
                return ToolResult.text("Streaming complete");
              });
        });

    server.tool(noArgs("test_logging_tool", "Logs a message at info level, if the request asked for logs"),
        (args, ctx) -> {
          ctx.log(LoggingLevel.INFO, LOGGER, "test_logging_tool ran");
          return Future.succeededFuture(ToolResult.text("Logging evaluated"));
        });

    registerToolTrigger(server);

    server.tool(noArgs("test_trigger_prompt_change",
            "Re-publishes a prompt, so prompt list subscribers are told the list changed"),
        (args, ctx) -> {
          InputRequiredFixtures.registerPrompt(server);
          return Future.succeededFuture(ToolResult.text("Mutation triggered"));
        });

    server.tool(Tool.builder("test_custom_header")
            .description("Echoes its region argument, which clients also send as the Mcp-Param-Region header")
            .inputSchema(new JsonObject()
                .put("type", "object")
                .put("properties", new JsonObject().put("region", new JsonObject()
                    .put("type", "string")
                    .put("description", "A region name, mirrored in the Mcp-Param-Region header")
                    .put("x-mcp-header", "Region")))
                .put("required", new JsonArray().add("region")))
            .build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text("Region: " + args.getString("region"))));
  }

  /** Registers the tool trigger; calling it registers it again (same definition, same place in the list). */
  private static void registerToolTrigger(McpServer server) {
    server.tool(noArgs(TRIGGER_TOOL_CHANGE, "Re-publishes itself, so tool list subscribers are told the list changed"),
        (args, ctx) -> {
          registerToolTrigger(server);
          return Future.succeededFuture(ToolResult.text("Mutation triggered"));
        });
  }
}
