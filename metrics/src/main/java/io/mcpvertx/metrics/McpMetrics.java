package io.mcpvertx.metrics;

import io.mcpvertx.metrics.impl.McpMetricsImpl;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.server.observe.McpObserver;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.spi.VertxMetricsFactory;
import java.util.function.IntSupplier;

/**
 * Prometheus metrics of one MCP server process, on one Micrometer registry. Off unless made: nothing in the runtime
 * depends on it.
 *
 * <pre>{@code
 * McpMetrics metrics = McpMetrics.create(new McpMetricsOptions().setPort(9464));
 * Vertx vertx = Vertx.builder().with(metrics.vertxOptions(new VertxOptions()))
 *     .withMetrics(metrics.vertxMetricsFactory()).build();          // Vert.x's HTTP, event-bus and pool metrics
 * McpStores stores = metrics.meter(McpStores.inMemory(vertx));       // store operations and errors
 * McpServer server = McpServer.create(vertx, options, stores);
 * metrics.bind(server);                                              // sessions, requests, tools, tasks, ...
 * metrics.serve(vertx);                                              // GET http://host:9464/metrics
 * }</pre>
 *
 * <p>Names follow the OpenTelemetry semantic conventions for MCP where they exist
 * ({@code mcp.server.operation.duration} with {@code mcp.method.name}, {@code gen_ai.tool.name},
 * {@code error.type}, {@code mcp.protocol.version}); Prometheus spells them with underscores and unit suffixes
 * ({@code mcp_server_operation_duration_seconds}). Labels are bounded: no session, task or request id, tool names
 * only of registered tools, unknown methods folded into {@code _OTHER}. Thread-safe.
 */
public interface McpMetrics {

  /** Metrics on a new Prometheus registry. */
  static McpMetrics create(McpMetricsOptions options) {
    return new McpMetricsImpl(options, null);
  }

  /** Metrics on {@code registry}, shared with the application's own meters. */
  static McpMetrics create(McpMetricsOptions options, PrometheusMeterRegistry registry) {
    return new McpMetricsImpl(options, registry);
  }

  McpMetricsOptions options();

  PrometheusMeterRegistry registry();

  /**
   * {@code base} with Vert.x metrics switched on (or left off when {@link McpMetricsOptions#isVertxMetrics()} is
   * false); build the Vert.x with it and {@link #vertxMetricsFactory()}.
   */
  VertxOptions vertxOptions(VertxOptions base);

  /** The factory of Vert.x's HTTP, event-bus and pool metrics, recording into {@link #registry()}. */
  VertxMetricsFactory vertxMetricsFactory();

  /**
   * Records what {@code server} does: installs this process's observer on it (before its transports start), and
   * the lease gauge of its deployment instance if it has one. Call it once per server.
   */
  McpMetrics bind(McpServer server);

  /** The observer {@link #bind} installs, for a caller that combines it with its own. */
  McpObserver observer();

  /**
   * {@code stores} with each operation timed and counted by store, backend and outcome, and events appended and
   * replayed counted. Give the result to the server (and its transports) instead of {@code stores}.
   */
  McpStores meter(McpStores stores);

  /** Reports the cluster's membership, as {@code members} counts it (e.g. {@code McpCluster::members}). */
  McpMetrics clusterMembers(IntSupplier members);

  /** The registry in the Prometheus text format: what the endpoint answers. */
  String scrape();

  /** Starts the scrape endpoint on the options' host, port and path; closed with {@code vertx}. */
  Future<HttpServer> serve(Vertx vertx);
}
