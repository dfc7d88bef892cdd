package io.mcpvertx.server.tracing;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.vertx.core.json.JsonObject;

/**
 * The span of one MCP request being served. Used on the context that serves the request, by one thread at a time.
 */
public interface McpSpan {

  /** A span that records nothing. */
  McpSpan NONE = new McpSpan() {
  };

  /** What {@link #makeCurrent()} undoes when closed. */
  @FunctionalInterface
  interface Scope extends AutoCloseable {

    /** Nothing to undo. */
    Scope NONE = () -> {
    };

    @Override
    void close();
  }

  /**
   * Makes this span the current one on this thread until the scope is closed: what the handler starts from here
   * (an HTTP call, an event-bus request) is its child.
   */
  default Scope makeCurrent() {
    return Scope.NONE;
  }

  /**
   * Writes this span's trace context into {@code meta} ({@code traceparent}, {@code tracestate}, {@code baggage}):
   * the {@code params._meta} of a request the server sends to the client while serving this one.
   */
  default void inject(JsonObject meta) {
  }

  /** This span's W3C {@code traceparent}, kept to link later work to it (a task's); null when not recording. */
  default String traceparent() {
    return null;
  }

  /** The trace id, for log lines written while the request is served; null when not recording. */
  default String traceId() {
    return null;
  }

  /** The span id, for log lines; null when not recording. */
  default String spanId() {
    return null;
  }

  /** Records a link to the span with this W3C {@code traceparent} (the one that created a task); null is ignored. */
  default void link(String traceparent) {
  }

  /**
   * Ends the span: {@code error} null for a result, the JSON-RPC error otherwise; {@code toolError} when a
   * {@code tools/call} result has {@code isError} set.
   */
  default void end(JsonRpcError error, boolean toolError) {
  }

  /** Ends the span of a request that ended without a response (cancelled, or its session closed). */
  default void abandon() {
  }
}
