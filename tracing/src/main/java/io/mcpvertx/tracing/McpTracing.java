package io.mcpvertx.tracing;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.tracing.McpTracer;
import io.mcpvertx.tracing.impl.OtelMcpTracer;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.vertx.core.spi.VertxTracerFactory;
import io.vertx.tracing.opentelemetry.OpenTelemetryTracingFactory;

/**
 * Traces of an MCP server on OpenTelemetry. Two parts, both on the same {@link OpenTelemetry}:
 *
 * <ul>
 *   <li>{@link #vertxTracer}: Vert.x's tracer, given to {@code Vertx.builder().withTracer(...)} (or {@code
 *       McpCluster.start(options, tracer)}): a span per HTTP request, parented on its {@code traceparent} header,
 *       and per event-bus message, with the context carried in the message's headers across a cluster;</li>
 *   <li>{@link #tracer}: our {@link McpTracer}, given to {@link McpServer#tracer}: a server span per MCP request
 *       (and per task execution) with the attributes of the OpenTelemetry MCP semantic conventions, parented on
 *       {@code params._meta.traceparent} when the client sent one (linked to the HTTP or event-bus span then) and
 *       on the current span otherwise.</li>
 * </ul>
 *
 * <p>{@link #autoConfigured()} builds the SDK the standard way, from {@code OTEL_*} environment variables and
 * {@code otel.*} system properties (OTLP exporter by default; {@code OTEL_TRACES_SAMPLER}, {@code
 * OTEL_EXPORTER_OTLP_ENDPOINT}, {@code OTEL_SERVICE_NAME}...).
 */
public final class McpTracing {

  private McpTracing() {
  }

  /** An OpenTelemetry SDK configured from the environment and system properties, shut down with the JVM. */
  public static OpenTelemetry autoConfigured() {
    return AutoConfiguredOpenTelemetrySdk.initialize().getOpenTelemetrySdk();
  }

  /** The MCP request tracer on {@code openTelemetry}. */
  public static McpTracer tracer(OpenTelemetry openTelemetry) {
    return new OtelMcpTracer(openTelemetry);
  }

  /** Vert.x's tracer (HTTP and event-bus spans, context across the event bus) on {@code openTelemetry}. */
  public static VertxTracerFactory vertxTracer(OpenTelemetry openTelemetry) {
    return new OpenTelemetryTracingFactory(openTelemetry);
  }
}
