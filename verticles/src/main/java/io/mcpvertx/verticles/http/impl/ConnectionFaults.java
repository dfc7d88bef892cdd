package io.mcpvertx.verticles.http.impl;

import io.vertx.core.net.SocketAddress;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.function.LongSupplier;

/**
 * The log of connections that failed underneath the requests: bytes the HTTP decoder could not read (malformed
 * chunk sizes, an overlong chunk extension, a bad header line) or a socket the client reset. These are the
 * client's doing, so never a stack trace; and since a client can cause them at will, at most one WARN line per
 * {@link #WINDOW_MS}, the next one saying how many were left out. A reset or closed socket is a DEBUG line only.
 *
 * <p>Accessed only on its HTTP verticle's event loop.
 */
final class ConnectionFaults {

  private static final Logger LOG = LoggerFactory.getLogger(ConnectionFaults.class);
  static final long WINDOW_MS = 10_000;

  private final LongSupplier clockMs;
  private long windowStart = Long.MIN_VALUE;
  private int suppressed;

  ConnectionFaults() {
    this(() -> System.nanoTime() / 1_000_000);
  }

  /** With the clock that decides the windows, in milliseconds. */
  ConnectionFaults(LongSupplier clockMs) {
    this.clockMs = clockMs;
  }

  /** Logs a connection's fault, or counts it when a line was logged in this window; whether a line was logged. */
  boolean record(SocketAddress remote, Throwable fault) {
    if (fault instanceof IOException) {
      LOG.atDebug().log(() -> "HTTP connection from " + remote + " failed: " + fault);
      return false;
    }
    long now = clockMs.getAsLong();
    if (windowStart != Long.MIN_VALUE && now - windowStart < WINDOW_MS) {
      suppressed++;
      return false;
    }
    windowStart = now;
    int left = suppressed;
    suppressed = 0;
    LOG.atWarn().log(() -> "HTTP connection from " + remote + " closed on malformed input: "
        + fault.getClass().getSimpleName() + ": " + fault.getMessage()
        + (left == 0 ? "" : " (" + left + " more in the last " + WINDOW_MS / 1000 + " s not logged)"));
    return true;
  }
}
