package io.mcpvertx.examples.e2e.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The balancer rule docs/cluster.md gives and the cluster tests use, on its own: a POST whose instance drops the
 * connection before answering (as a stopping instance does with a connection it accepted but never read, or a
 * dead one with everything) goes on to the next instance instead of reaching the client as a 502. The instances
 * here are plain sockets, so the test says what nginx does, whatever the server.
 */
class NginxRetryIT {

  @BeforeAll
  static void needsNginx() {
    Nginx.require();
  }

  /** What an instance does with each connection, once it has read the request's head. */
  @FunctionalInterface
  private interface Instance {
    void answer(Socket socket) throws Exception;
  }

  /** Serves {@code server}'s connections one at a time on a thread of its own, until the socket closes. */
  private static void serve(ServerSocket server, Instance instance) {
    Thread thread = new Thread(() -> {
      while (!server.isClosed()) {
        try (Socket socket = server.accept()) {
          readHead(socket.getInputStream());
          instance.answer(socket);
        } catch (Exception closed) {
          return;
        }
      }
    }, "instance-" + server.getLocalPort());
    thread.setDaemon(true);
    thread.start();
  }

  /** Drops the connection without a word: reset, or closed. */
  private static Instance dropping(boolean reset) {
    return socket -> {
      if (reset) {
        socket.setSoLinger(true, 0);
      }
    };
  }

  /** Answers 200 with a JSON-RPC result, as a live instance would. */
  private static void answering(Socket socket) throws Exception {
    byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}".getBytes(StandardCharsets.UTF_8);
    socket.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
        + body.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().write(body);
    socket.getOutputStream().flush();
  }

  private static void readHead(InputStream in) throws Exception {
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    int b;
    while (matched < 4 && (b = in.read()) != -1) {
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Test
  void aPostDroppedUnansweredGoesToTheNextInstanceInsteadOfA502(@TempDir Path dir) throws Exception {
    InetAddress loopback = InetAddress.getLoopbackAddress();
    try (ServerSocket resetting = new ServerSocket(0, 50, loopback);
        ServerSocket closing = new ServerSocket(0, 50, loopback);
        ServerSocket live = new ServerSocket(0, 50, loopback)) {
      serve(resetting, dropping(true));
      serve(closing, dropping(false));
      serve(live, NginxRetryIT::answering);
      int port = freePort();
      try (Nginx nginx = Nginx.start(dir.resolve("nginx"), port,
          List.of(resetting.getLocalPort(), closing.getLocalPort(), live.getLocalPort()))) {
        HttpClient client = HttpClient.newHttpClient();
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
          HttpRequest post = HttpRequest.newBuilder(URI.create(nginx.url()))
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"))
              .build();
          statuses.add(client.send(post, HttpResponse.BodyHandlers.ofString()).statusCode());
        }
        assertEquals(List.of(200, 200, 200, 200, 200, 200), statuses, nginx::output);
        String error = Files.readString(dir.resolve("nginx").resolve("error.log"), StandardCharsets.UTF_8);
        // Both ways of dropping a POST were met, and each went on to the live instance.
        assertTrue(error.contains("reset by peer"), error);
        assertTrue(error.contains("prematurely closed connection while reading response header"), error);
        assertTrue(nginx.accesses().stream().anyMatch(a -> a.method().equals("POST") && a.upstreams().size() > 1),
            nginx::output);
      }
    }
  }
}
