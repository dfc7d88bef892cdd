package io.mcpvertx.server;

import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Runs a tool. The arguments have already been validated against the tool's {@code inputSchema}.
 *
 * <p>Runs on the session's event loop, so it must not block; register a {@link BlockingToolHandler} for code
 * that does.
 */
@FunctionalInterface
public interface ToolHandler {

  Future<ToolResult> call(JsonObject arguments, RequestContext ctx);
}
