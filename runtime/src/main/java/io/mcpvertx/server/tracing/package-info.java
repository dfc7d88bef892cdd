/**
 * The seam through which a server reports the requests it serves to a tracer: {@link
 * io.mcpvertx.server.tracing.McpTracer}, with {@link io.mcpvertx.server.tracing.McpTracer#NONE} by default. The
 * runtime depends on no tracing library; the tracing module implements it on OpenTelemetry.
 */
package io.mcpvertx.server.tracing;
