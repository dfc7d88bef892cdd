package io.mcpvertx.verticles.http;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.impl.McpServerImpl;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.spi.EventStore;
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

  private HttpTestServer(Vertx vertx, McpServerOptions serverOptions, McpHttpServerOptions options,
      InMemoryEventStore events, EventStore served) {
    this.vertx = vertx;
    this.events = events;
    this.mcp = (McpServerImpl) McpServer.create(vertx, serverOptions, McpStores.builder(vertx).events(served).build());
    this.tools = new TestTools().register(mcp);
    this.http = McpHttpServer.create(vertx, mcp, options);
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
    return start(vertx, serverOptions, options, new InMemoryEventStore(), instances);
  }

  /** Starts an endpoint keeping its events in {@code events}. */
  static Future<HttpTestServer> start(Vertx vertx, McpHttpServerOptions options, InMemoryEventStore events) {
    return start(vertx, new McpServerOptions(), options, events, 1);
  }

  private static Future<HttpTestServer> start(Vertx vertx, McpServerOptions serverOptions,
      McpHttpServerOptions options, InMemoryEventStore events, int instances) {
    return start(vertx, serverOptions, options, events, events, instances);
  }

  /**
   * Starts an endpoint whose MCP server keeps its events through {@code served}, a wrapper of {@code events} (which
   * the test reads directly).
   */
  static Future<HttpTestServer> start(Vertx vertx, InMemoryEventStore events, EventStore served) {
    return start(vertx, new McpServerOptions(), new McpHttpServerOptions(), events, served, 1);
  }

  private static Future<HttpTestServer> start(Vertx vertx, McpServerOptions serverOptions,
      McpHttpServerOptions options, InMemoryEventStore events, EventStore served, int instances) {
    HttpTestServer server = new HttpTestServer(vertx, serverOptions, new McpHttpServerOptions(options).setPort(0),
        events, served);
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
