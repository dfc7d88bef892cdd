package io.mcpvertx.examples.config;

import io.mcpvertx.cluster.McpCluster;
import io.mcpvertx.metrics.McpMetrics;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpStores;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

/**
 * The examples jar's metrics, when {@code --metrics} (or {@code MCP_METRICS}, or the file's {@code metrics.enabled})
 * turns them on: the Vert.x is built with Vert.x's own metrics, the stores are metered, the server observed, and
 * the scrape endpoint started. When they are off every method leaves things as they are.
 */
public final class ExampleMetrics {

  private final McpMetrics metrics;

  private ExampleMetrics(McpMetrics metrics) {
    this.metrics = metrics;
  }

  public static ExampleMetrics of(ExampleConfig config) {
    return new ExampleMetrics(config.metrics().map(McpMetrics::create).orElse(null));
  }

  /** The Vert.x to serve on: clustered or not, with Vert.x metrics when metrics are on. */
  public Future<Vertx> vertx(ExampleConfig config) {
    VertxOptions options = metrics == null ? new VertxOptions() : metrics.vertxOptions(new VertxOptions());
    if (config.clustered()) {
      return McpCluster.start(config.cluster(), options, metrics == null ? null : metrics.vertxMetricsFactory())
          .onSuccess(vertx -> {
            if (metrics != null) {
              metrics.clusterMembers(() -> McpCluster.members(vertx));
            }
          });
    }
    return Future.succeededFuture(metrics == null ? Vertx.vertx(options)
        : Vertx.builder().with(options).withMetrics(metrics.vertxMetricsFactory()).build());
  }

  /** {@code stores} metered, when metrics are on. */
  public McpStores stores(McpStores stores) {
    return metrics == null ? stores : metrics.meter(stores);
  }

  /** Observes {@code server} and starts the scrape endpoint, when metrics are on. */
  public Future<McpServer> serve(Vertx vertx, McpServer server) {
    if (metrics == null) {
      return Future.succeededFuture(server);
    }
    metrics.bind(server);
    return metrics.serve(vertx).map(endpoint -> {
      System.err.println("Metrics on http://" + metrics.options().getHost() + ":" + endpoint.actualPort()
          + metrics.options().getPath());
      return server;
    });
  }
}
