package io.mcpvertx.verticles.http;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.verticles.McpSessionVerticle;
import io.mcpvertx.verticles.http.impl.McpHttpServerImpl;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.function.Supplier;

/**
 * The Streamable HTTP transport of the 2025 protocol generation: one endpoint (POST, GET, DELETE) with sessions,
 * resumable SSE and the security checks the spec asks for.
 *
 * <p>The HTTP verticles only hold connections. Each session is a {@link McpSessionVerticle};
 * requests reach it over the event bus and everything it emits comes back the same way to the connection that
 * should carry it.
 *
 * <pre>{@code
 * McpHttpServer.create(vertx, server, new McpHttpServerOptions().setPort(3000)).listen();
 * }</pre>
 */
public interface McpHttpServer {

  /**
   * A server keeping its SSE events, and its sessions when they are shared, in {@code server}'s
   * {@link McpServer#stores() stores}: with shared stores (on Redis, say) any instance can serve any session and
   * resume any stream.
   */
  static McpHttpServer create(Vertx vertx, McpServer server, McpHttpServerOptions options) {
    return new McpHttpServerImpl(vertx, server, options);
  }

  /** Starts one HTTP verticle. */
  default Future<McpHttpServer> listen() {
    return listen(1);
  }

  /** Starts {@code instances} HTTP verticles sharing the port, one per event loop. */
  Future<McpHttpServer> listen(int instances);

  /** The bound port (useful with port 0); -1 before listening. */
  int actualPort();

  /** Sessions alive now. */
  int sessionCount();

  /** Stops listening and closes every session. */
  Future<Void> close();

  /**
   * A graceful stop: takes no new connections or requests, ends the GET streams (their clients resume elsewhere),
   * waits for the requests in flight to be answered, up to {@code timeoutMs}, then {@link #close closes}.
   * Clustered, closing hands the sessions held here over: other instances take them over with their next request.
   */
  Future<Void> shutdown(long timeoutMs);

  /**
   * Adds a check to the readiness probe ({@code /health/ready}): ready only while it succeeds. Call it before
   * {@link #listen}. A clustered server adds "the cluster is joined", say.
   */
  McpHttpServer addReadinessCheck(String name, Supplier<Future<Void>> check);
}
