package io.mcpvertx.server.tools;

import io.mcpvertx.server.RequestContext;
import io.vertx.core.json.JsonObject;

/**
 * A tool that blocks (JDBC, file I/O, a synchronous SDK). It runs on a worker thread, or on a virtual thread
 * on JDK 21 and later when the server is configured so, never on an event loop.
 */
@FunctionalInterface
public interface BlockingToolHandler {

  ToolResult call(JsonObject arguments, RequestContext ctx) throws Exception;
}
