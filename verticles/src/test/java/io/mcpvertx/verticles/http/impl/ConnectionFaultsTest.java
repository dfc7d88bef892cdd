package io.mcpvertx.verticles.http.impl;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.net.SocketAddress;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The fault log of connections: one line per window whatever a client sends, and none for a reset socket. */
class ConnectionFaultsTest {

  private static final SocketAddress CLIENT = SocketAddress.inetSocketAddress(40000, "127.0.0.1");

  @Test
  void logsOneLinePerWindowHoweverManyConnectionsFail() {
    AtomicLong now = new AtomicLong(1_000);
    ConnectionFaults faults = new ConnectionFaults(now::get);
    assertTrue(faults.record(CLIENT, new NumberFormatException("Invalid character in chunk size")));
    for (int i = 0; i < 1000; i++) {
      now.addAndGet(5);
      assertFalse(faults.record(CLIENT, new NumberFormatException("Invalid character in chunk size")));
    }
    now.set(1_000 + ConnectionFaults.WINDOW_MS);
    assertTrue(faults.record(CLIENT, new IllegalArgumentException("Multiple Content-Length values")));
  }

  @Test
  void logsNoWarningForAResetSocket() {
    ConnectionFaults faults = new ConnectionFaults(() -> 0);
    assertFalse(faults.record(CLIENT, new IOException("Connection reset by peer")));
    assertTrue(faults.record(CLIENT, new NumberFormatException("Chunk size overflow")));
  }
}
