package io.mcpvertx.server;

import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.json.JsonObject;

/**
 * A tool that blocks (JDBC, file I/O, a synchronous SDK). It runs on a worker thread, or on a virtual thread
 * on JDK 21 and later when the server is configured so, never on an event loop.
 */
@FunctionalInterface
public interface BlockingToolHandler {

  ToolResult call(JsonObject arguments, RequestContext ctx) throws Exception;
}
