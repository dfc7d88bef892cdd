package io.mcpvertx.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for servers a test starts later (another JVM, a Hazelcast member), taken below the kernel's ephemeral range.
 * A port found by binding port 0 comes from that range, where outgoing connections (Hazelcast members dialling
 * each other, Redis clients) also take their local ports, so the server could find its port taken by the time it
 * binds it. Each port is handed out once per JVM.
 */
public final class FreePorts {

  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();
  private static final int LOW = 20_000;

  private FreePorts() {
  }

  /** One port that was free a moment ago. */
  public static int one() {
    int high = Math.min(32_768, ephemeralLow());
    for (int attempt = 0; attempt < 1_000; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(LOW, high);
      if (!HANDED_OUT.add(port)) {
        continue;
      }
      try (ServerSocket socket = new ServerSocket()) {
        socket.bind(new InetSocketAddress(port));
        return port;
      } catch (IOException taken) {
        // in use: try another
      }
    }
    throw new UncheckedIOException(new IOException("no free port between " + LOW + " and " + high));
  }

  /** {@code count} distinct ports that were free a moment ago. */
  public static int[] some(int count) {
    int[] ports = new int[count];
    for (int i = 0; i < count; i++) {
      ports[i] = one();
    }
    return ports;
  }

  /** The first port of the kernel's ephemeral range (Linux), or 32768 where it cannot be read. */
  private static int ephemeralLow() {
    try {
      String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
      return Math.max(LOW + 1_000, Integer.parseInt(range.split("\\s+")[0]));
    } catch (IOException | RuntimeException e) {
      return 32_768;
    }
  }
}
