package io.mcpvertx.testing.http;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bytes on a socket, for requests an HTTP client would normalise or refuse to send (two framings at once, a
 * malformed chunk, a made-up version), and everything the server sends back until it closes the connection.
 */
public final class RawHttp {

  private static final Pattern STATUS_LINE = Pattern.compile("(?m)^HTTP/[0-9.]+ ([0-9]{3}) ");

  /** What came back on one connection before the server closed it. */
  public record Exchange(String text) {

    /** The status of each response, in order (a second one answers a request pipelined or smuggled after). */
    public List<Integer> statuses() {
      List<Integer> statuses = new ArrayList<>();
      Matcher matcher = STATUS_LINE.matcher(text);
      while (matcher.find()) {
        statuses.add(Integer.parseInt(matcher.group(1)));
      }
      return statuses;
    }

    /** The first response's head (status line and headers). */
    public String head() {
      int end = text.indexOf("\r\n\r\n");
      return end < 0 ? text : text.substring(0, end);
    }

    /** The first response's body, to the end of what was received. */
    public String body() {
      int end = text.indexOf("\r\n\r\n");
      return end < 0 ? "" : text.substring(end + 4);
    }
  }

  private RawHttp() {
  }

  /** Writes {@code request} (ISO-8859-1) on a new loopback connection; completes when the server closes it. */
  public static Future<Exchange> exchange(Vertx vertx, int port, String request) {
    return exchange(vertx, port, Buffer.buffer(request.getBytes(StandardCharsets.ISO_8859_1)));
  }

  /** Writes {@code request} on a new loopback connection; completes when the server closes it. */
  public static Future<Exchange> exchange(Vertx vertx, int port, Buffer request) {
    Promise<Exchange> done = Promise.promise();
    vertx.createNetClient().connect(port, "127.0.0.1").onComplete(ar -> {
      if (ar.failed()) {
        done.fail(ar.cause());
        return;
      }
      NetSocket socket = ar.result();
      Buffer received = Buffer.buffer();
      socket.handler(received::appendBuffer);
      socket.closeHandler(v -> done.complete(new Exchange(received.toString(StandardCharsets.ISO_8859_1))));
      socket.write(request);
    });
    return done.future();
  }

  /** A chunked body: {@code payload} as one chunk, then the last chunk. */
  public static String chunked(String payload) {
    return Integer.toHexString(payload.getBytes(StandardCharsets.ISO_8859_1).length) + "\r\n" + payload
        + "\r\n0\r\n\r\n";
  }
}
