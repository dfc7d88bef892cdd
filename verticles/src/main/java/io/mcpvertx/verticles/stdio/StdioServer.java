package io.mcpvertx.verticles.stdio;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.verticles.stdio.impl.StdioServerImpl;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The stdio transport: newline-delimited JSON-RPC on an input and an output stream, one session per process,
 * as MCP hosts launch local servers.
 *
 * <p>Only protocol messages are written to the output; logs belong on standard error. End of input ends the
 * session: requests still being served get up to {@link StdioServerOptions#getDrainTimeoutMs()} to finish.
 *
 * <pre>{@code
 * StdioServer.create(vertx, server).serve().onComplete(done -> vertx.close());
 * }</pre>
 */
public interface StdioServer {

  static StdioServer create(Vertx vertx, McpServer server, StdioServerOptions options) {
    return new StdioServerImpl(vertx, server, options);
  }

  static StdioServer create(Vertx vertx, McpServer server) {
    return create(vertx, server, new StdioServerOptions());
  }

  /** Serves the process's standard input and output; completes when the input ends and the session closed. */
  Future<Void> serve();

  /** Serves the given streams; completes when {@code in} ends and the session closed. */
  Future<Void> serve(InputStream in, OutputStream out);
}
