/** OpenTelemetry traces of MCP requests: {@link io.mcpvertx.tracing.McpTracing}. */
package io.mcpvertx.tracing;
