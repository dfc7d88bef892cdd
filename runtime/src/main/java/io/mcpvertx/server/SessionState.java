package io.mcpvertx.server;

/** The lifecycle of a session, as the spec's lifecycle section draws it. */
public enum SessionState {
  /** Created; only {@code initialize} and {@code ping} are served. */
  AWAITING_INITIALIZE,
  /** {@code initialize} answered; waiting for {@code notifications/initialized}. Requests are served. */
  AWAITING_INITIALIZED,
  /** Normal operation. */
  OPERATING,
  /** Closed by the transport, a DELETE or expiry. Nothing more is served or sent. */
  CLOSED
}
