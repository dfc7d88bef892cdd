/**
 * OpenTelemetry traces of MCP requests: an {@link io.mcpvertx.server.tracing.McpTracer} on the OpenTelemetry API,
 * and Vert.x's own OpenTelemetry tracer for the HTTP and event-bus spans and the context they carry.
 */
module io.mcpvertx.tracing {
  requires transitive io.mcpvertx.runtime;
  requires transitive io.opentelemetry.api;
  requires io.opentelemetry.context;
  requires io.opentelemetry.sdk.autoconfigure;
  requires io.vertx.tracing.opentelemetry;

  exports io.mcpvertx.tracing;
}
