/**
 * Prometheus metrics for MCP servers on Micrometer: Vert.x's own metrics through vertx-micrometer-metrics, the
 * runtime's events through its observer SPI, the stores' operations, and a scrape endpoint. Only the API package is
 * exported.
 */
module io.mcpvertx.metrics {
  requires transitive io.mcpvertx.runtime;
  requires transitive io.vertx.core;
  requires transitive io.vertx.metrics.micrometer;
  requires transitive micrometer.core;
  requires transitive micrometer.registry.prometheus;

  exports io.mcpvertx.metrics;
}
