package io.mcpvertx.server.tracing;

/**
 * Where a server reports the MCP requests it serves, for distributed traces: one span per request (per task
 * execution too), parented on the trace context the client sent in {@code params._meta} or, without one, on the
 * context current where the request arrived (the HTTP request's, or the event-bus message's that carried it from
 * another instance).
 *
 * <p>The runtime calls it on the context that serves the request; an implementation must not block. {@link #NONE},
 * the default, does nothing: the runtime checks for it before building anything, so a server without tracing pays
 * one comparison per request. Set with {@code McpServer.tracer(...)}; the tracing module implements it on
 * OpenTelemetry.
 */
public interface McpTracer {

  /** No tracing. */
  McpTracer NONE = new McpTracer() {
    @Override
    public Runnable wrap(Runnable task) {
      return task;
    }

    @Override
    public McpSpan start(SpanStart start) {
      return McpSpan.NONE;
    }
  };

  /**
   * {@code task} made to run with the trace context that is current now, wherever it runs: for a hand-off to
   * another context (the session's) that would otherwise lose it.
   */
  Runnable wrap(Runnable task);

  /** Starts the span of one request or task execution; never null ({@link McpSpan#NONE} when not sampled in). */
  McpSpan start(SpanStart start);
}
