/**
 * Metrics of an MCP server for Prometheus: {@link io.mcpvertx.metrics.McpMetrics} (the registry, the Vert.x metrics
 * factory, the server's observer, metered stores, the scrape endpoint) and its options. See docs/observability.md
 * for the metrics and their labels.
 */
package io.mcpvertx.metrics;
