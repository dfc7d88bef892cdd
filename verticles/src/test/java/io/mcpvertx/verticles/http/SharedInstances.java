package io.mcpvertx.verticles.http;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceResult;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.spi.EventStore;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.spi.sessions.SessionStore;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.testing.http.StreamableHttpSession;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * Two instances of one MCP server, each a Vert.x instance of its own with its own {@link McpServer} and
 * {@link McpHttpServer} on its own port, sharing one event store and one session store: in-memory stores are
 * thread-safe objects, so sharing them in one JVM stands for a shared Redis. Nothing else connects them (no
 * clustered event bus).
 */
final class SharedInstances implements AutoCloseable {

  static final String RESOURCE_URI = "memo://note";

  /** One instance: a Vert.x, a server with the test tools, an endpoint. */
  static final class Instance {
    final Vertx vertx;
    final McpServer mcp;
    final TestTools tools;
    final McpHttpServer http;
    private final Vertx clientVertx;

    private Instance(Vertx vertx, Vertx clientVertx, McpHttpServerOptions options, EventStore events,
        SessionStore sessions) {
      this.vertx = vertx;
      this.clientVertx = clientVertx;
      this.mcp = McpServer.create(vertx, new McpServerOptions(),
          McpStores.builder(vertx).events(events).sessions(sessions).build());
      this.tools = new TestTools().register(mcp);
      mcp.tool(Tool.builder("logs").description("Logs at info and at error, then answers").build(), (args, ctx) -> {
        ctx.log(LoggingLevel.INFO, "logs", "at info");
        ctx.log(LoggingLevel.ERROR, "logs", "at error");
        return Future.succeededFuture(ToolResult.text("logged"));
      });
      mcp.resource(Resource.of(RESOURCE_URI, "note", "text/plain"),
          (uri, ctx) -> Future.succeededFuture(ResourceResult.text(uri, "text/plain", "a note")));
      this.http = McpHttpServer.create(vertx, mcp, new McpHttpServerOptions(options).setPort(0));
    }

    StreamableHttp client() {
      return StreamableHttp.http1(clientVertx, http.actualPort());
    }

    /** The same session, seen by a client of this instance. */
    StreamableHttpSession session(StreamableHttpSession session) {
      return new StreamableHttpSession(client(), session.id(), session.version(), null);
    }
  }

  final Instance a;
  final Instance b;
  private final Vertx second;

  private SharedInstances(Vertx vertx, Vertx second, McpHttpServerOptions options, EventStore events,
      SessionStore sessions) {
    this.second = second;
    this.a = new Instance(vertx, vertx, options, events, sessions);
    this.b = new Instance(second, vertx, options, events, sessions);
  }

  /**
   * Starts instance A on {@code vertx} and instance B on a Vert.x of its own, both with {@code options} (the port
   * replaced by 0), sharing {@code events} and {@code sessions}.
   */
  static Future<SharedInstances> start(Vertx vertx, McpHttpServerOptions options, EventStore events,
      SessionStore sessions) {
    SharedInstances instances = new SharedInstances(vertx, Vertx.vertx(), options, events, sessions);
    return instances.a.http.listen().compose(v -> instances.b.http.listen()).map(instances);
  }

  @Override
  public void close() {
    a.http.close();
    b.http.close();
    second.close();
  }
}
