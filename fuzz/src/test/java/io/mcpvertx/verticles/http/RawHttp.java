package io.mcpvertx.verticles.http;

import com.code_intelligence.jazzer.api.BugDetectors;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.RequestOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over one kept-alive socket, written and read byte by byte by the fuzz test itself: no client library
 * between the fuzzer and the server, so an answer that never comes is the server's doing. A new socket is opened
 * when the server has closed the last one.
 */
final class RawHttp {

  private static Socket socket;

  private RawHttp() {
  }

  static HttpPostFuzzTest.Answer exchange(int port, RequestOptions request, byte[] body, long hangMs,
      Collection<String> recent) {
    StringBuilder head = new StringBuilder("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n");
    for (Map.Entry<String, String> header : request.getHeaders()) {
      head.append(header.getKey()).append(": ").append(header.getValue()).append("\r\n");
    }
    head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
    for (int attempt = 0; ; attempt++) {
        try {
          Socket s = socket(port, hangMs);
          OutputStream out = s.getOutputStream();
          out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
          out.write(body);
          out.flush();
          HttpPostFuzzTest.Answer answer = read(s.getInputStream());
          if (answer == null) {
            throw new IOException("closed before an answer");
          }
          return answer;
        } catch (SocketTimeoutException e) {
          throw new AssertionError("no answer within " + hangMs + " ms to " + head + new String(body,
              StandardCharsets.ISO_8859_1) + "\nafter:\n" + String.join("\n", recent));
        } catch (IOException e) {
          // The server closed the kept-alive socket between two requests (or refused this one): try once anew.
          close();
          if (attempt == 1) {
            throw new AssertionError("the exchange failed twice: " + head, e);
          }
        }
    }
  }

  private static Socket socket(int port, long hangMs) throws IOException {
    if (socket == null || socket.isClosed()) {
      // The fuzzer's request-forgery detector refuses every connection not allowed here: only the test's own server.
      BugDetectors.allowNetworkConnections((host, to) -> to == port
          && (host.equals("127.0.0.1") || host.equals("localhost")));
      socket = new Socket("127.0.0.1", port);
      socket.setTcpNoDelay(true);
      socket.setSoTimeout((int) hangMs);
    }
    return socket;
  }

  private static void close() {
    try {
      if (socket != null) {
        socket.close();
      }
    } catch (IOException ignored) {
      // closing a socket the server closed already
    }
    socket = null;
  }

  /** One answer: status line, headers, then a body framed by Content-Length or chunks; null on a clean close. */
  private static HttpPostFuzzTest.Answer read(InputStream in) throws IOException {
    String status = line(in);
    if (status == null) {
      return null;
    }
    int code = Integer.parseInt(status.substring(9, 12));
    long length = -1;
    boolean chunked = false;
    boolean closes = false;
    String type = null;
    for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
      int colon = header.indexOf(':');
      String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = header.substring(colon + 1).trim();
      switch (name) {
        case "content-length" -> length = Long.parseLong(value);
        case "transfer-encoding" -> chunked = value.equalsIgnoreCase("chunked");
        case "connection" -> closes = value.equalsIgnoreCase("close");
        case "content-type" -> type = value;
        default -> { }
      }
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if (chunked) {
      for (long size = Long.parseLong(line(in).split(";")[0].trim(), 16); size > 0;
          size = Long.parseLong(line(in).split(";")[0].trim(), 16)) {
        body.write(in.readNBytes((int) size));
        line(in);
      }
      line(in);
    } else if (length > 0) {
      body.write(in.readNBytes((int) length));
    }
    if (closes) {
      close();
    }
    return new HttpPostFuzzTest.Answer(code, type, Buffer.buffer(body.toByteArray()));
  }

  private static String line(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        return line.length() == 0 ? null : line.toString();
      }
      if (b != '\r') {
        line.append((char) b);
      }
    }
    return line.toString();
  }
}
