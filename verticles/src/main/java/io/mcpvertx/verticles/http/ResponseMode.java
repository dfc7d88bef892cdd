package io.mcpvertx.verticles.http;

/** How a POST that carries requests is answered. */
public enum ResponseMode {
  /** Always {@code application/json}; messages sent before the response go to the session's GET stream. */
  JSON,
  /** Always {@code text/event-stream}. */
  SSE,
  /**
   * {@code application/json} when the response is the first thing the handler sends (the fast path), otherwise
   * {@code text/event-stream} from the first notification or server request on.
   */
  AUTO
}
