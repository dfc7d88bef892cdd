package io.mcpvertx.verticles.http;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.impl.McpServerImpl;
import io.mcpvertx.spi.memory.InMemoryEventStore;
import io.mcpvertx.testing.http.StreamableHttp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** A real endpoint on a free loopback port, serving {@link TestTools}, with an event store the test can inspect. */
final class HttpTestServer {

  final Vertx vertx;
  final McpServerImpl mcp;
  final TestTools tools;
  final InMemoryEventStore events;
  final McpHttpServer http;

  private HttpTestServer(Vertx vertx, McpServerOptions serverOptions, McpHttpServerOptions options) {
    this.vertx = vertx;
    this.mcp = (McpServerImpl) McpServer.create(vertx, serverOptions);
    this.tools = new TestTools().register(mcp);
    this.events = new InMemoryEventStore(options.getMaxEventsPerStream(), options.getMaxStreamsPerSession(),
        options.getEventRetentionMs());
    this.http = McpHttpServer.create(vertx, mcp, options, events);
  }

  /** Starts an endpoint with these options (the port is replaced by 0). */
  static Future<HttpTestServer> start(Vertx vertx, McpHttpServerOptions options) {
    return start(vertx, options, 1);
  }

  /** Starts an endpoint served by {@code instances} HTTP verticles. */
  static Future<HttpTestServer> start(Vertx vertx, McpHttpServerOptions options, int instances) {
    return start(vertx, new McpServerOptions(), options, instances);
  }

  /** Starts an endpoint whose MCP server has {@code serverOptions}. */
  static Future<HttpTestServer> start(Vertx vertx, McpServerOptions serverOptions, McpHttpServerOptions options,
      int instances) {
    HttpTestServer server = new HttpTestServer(vertx, serverOptions, new McpHttpServerOptions(options).setPort(0));
    return server.http.listen(instances).map(server);
  }

  static Future<HttpTestServer> start(Vertx vertx) {
    return start(vertx, new McpHttpServerOptions());
  }

  int port() {
    return http.actualPort();
  }

  StreamableHttp client() {
    return StreamableHttp.http1(vertx, port());
  }
}
