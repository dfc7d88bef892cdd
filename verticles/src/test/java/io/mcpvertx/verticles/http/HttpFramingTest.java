package io.mcpvertx.verticles.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.testing.LogCapture;
import io.mcpvertx.testing.http.RawHttp;
import io.mcpvertx.testing.http.RawHttp.Exchange;
import io.mcpvertx.testing.http.StreamableHttp;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.event.Level;

/**
 * How a request's body is framed, as bytes on a socket: two framings at once, transfer codings the server does not
 * understand, malformed chunks and a made-up HTTP version. Each is answered (or the connection closed) without a
 * request smuggled after it being answered, and without a stack trace in the log.
 */
@ExtendWith(VertxExtension.class)
class HttpFramingTest {

  private static final String V11 = "2025-11-25";
  private static final String SMUGGLED = "GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n";

  /** What is logged, from every logger, while a test runs. */
  private LogCapture logs;

  @BeforeEach
  void catchLogs() {
    logs = LogCapture.start();
  }

  @AfterEach
  void releaseLogs() {
    logs.close();
  }

  private void assertNoStackTrace() {
    List<LogCapture.Line> traces = logs.traces();
    assertTrue(traces.isEmpty(), () -> "stack traces logged: " + traces.stream()
        .map(r -> r.logger() + ": " + r.message() + " " + r.thrown()).toList());
  }

  /** A POST head for the MCP path with these framing lines (each ending CRLF). */
  private static String head(String version, String framing) {
    return "POST " + StreamableHttp.DEFAULT_PATH + " " + version + "\r\nHost: localhost\r\n"
        + "Content-Type: application/json\r\nAccept: " + StreamableHttp.ACCEPT_BOTH + "\r\n" + framing + "\r\n";
  }

  private static String initialize() {
    return StreamableHttp.initializeRequest(V11).encode();
  }

  private static Future<Exchange> send(Vertx vertx, String bytes) {
    return HttpTestServer.start(vertx).compose(server -> RawHttp.exchange(vertx, server.port(), bytes));
  }

  private static void assertJsonRpcError(Exchange exchange, int status) {
    assertEquals(List.of(status), exchange.statuses(), exchange::text);
    assertTrue(exchange.head().toLowerCase().contains("content-type: application/json"), exchange::text);
    assertEquals(-32000, new JsonObject(exchange.body()).getJsonObject("error").getInteger("code"), exchange::text);
  }

  @Test
  void servesContentLengthBesideChunkedAsChunkedThenClosesWithoutAnsweringASmuggledRequest(Vertx vertx,
      VertxTestContext test) {
    String body = initialize();
    String bytes = head("HTTP/1.1", "Content-Length: " + body.length() + "\r\nTransfer-Encoding: chunked\r\n")
        + RawHttp.chunked(body) + SMUGGLED;
    send(vertx, bytes).onComplete(test.succeeding(exchange -> test.verify(() -> {
      assertEquals(List.of(200), exchange.statuses(), exchange::text);
      assertTrue(exchange.head().toLowerCase().contains("connection: close"), exchange::text);
      assertNoStackTrace();
      test.completeNow();
    })));
  }

  @Test
  void closesAfterAPlainChunkedRequestWithoutAnsweringWhatFollows(Vertx vertx, VertxTestContext test) {
    String bytes = head("HTTP/1.1", "Transfer-Encoding: chunked\r\n") + RawHttp.chunked(initialize()) + SMUGGLED;
    send(vertx, bytes).onComplete(test.succeeding(exchange -> test.verify(() -> {
      assertEquals(List.of(200), exchange.statuses(), exchange::text);
      test.completeNow();
    })));
  }

  @ParameterizedTest
  @ValueSource(strings = {"gzip, chunked", "gzip", "chunked, chunked", "identity", "chunked;ext=1, gzip"})
  void answersATransferCodingOtherThanChunkedWith501AndCloses(String coding, Vertx vertx, VertxTestContext test) {
    String bytes = head("HTTP/1.1", "Transfer-Encoding: " + coding + "\r\n") + RawHttp.chunked(initialize())
        + SMUGGLED;
    send(vertx, bytes).onComplete(test.succeeding(exchange -> test.verify(() -> {
      assertJsonRpcError(exchange, 501);
      assertNoStackTrace();
      test.completeNow();
    })));
  }

  @Test
  void answersTwoTransferEncodingHeadersWith501(Vertx vertx, VertxTestContext test) {
    String bytes = head("HTTP/1.1", "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n")
        + RawHttp.chunked(initialize()) + SMUGGLED;
    send(vertx, bytes).onComplete(test.succeeding(exchange -> test.verify(() -> {
      assertJsonRpcError(exchange, 501);
      test.completeNow();
    })));
  }

  @Test
  void answersTransferEncodingInAnHttp10RequestWith400(Vertx vertx, VertxTestContext test) {
    String body = initialize();
    String bytes = head("HTTP/1.0", "Content-Length: " + body.length() + "\r\nTransfer-Encoding: chunked\r\n")
        + RawHttp.chunked(body);
    send(vertx, bytes).onComplete(test.succeeding(exchange -> test.verify(() -> {
      assertJsonRpcError(exchange, 400);
      test.completeNow();
    })));
  }

  @ParameterizedTest
  @ValueSource(strings = {"zz", "FFFFFFFFFFFFFFFFFFFF", "-3", "3;EXTENSION"})
  void closesOnMalformedChunkSyntaxWithoutAnAnswerOrAStackTrace(String size, Vertx vertx, VertxTestContext test) {
    String chunkSize = size.replace("EXTENSION", "a".repeat(100_000));
    String bytes = head("HTTP/1.1", "Transfer-Encoding: chunked\r\n") + chunkSize + "\r\nabc\r\n0\r\n\r\n" + SMUGGLED;
    send(vertx, bytes).onComplete(test.succeeding(exchange -> test.verify(() -> {
      // Vert.x closes the connection as soon as the decoder fails: no answer can be written before that.
      assertEquals(List.of(), exchange.statuses(), exchange::text);
      assertNoStackTrace();
      long warnings = logs.lines().stream().filter(r -> r.atLeast(Level.WARN)).count();
      assertEquals(1, warnings,
          () -> "expected one warning: " + logs.lines().stream().map(LogCapture.Line::message).toList());
      test.completeNow();
    })));
  }

  @Test
  void servesABodyThatArrivesInSeveralPieces(Vertx vertx, VertxTestContext test) {
    // The body's first half, then after a pause its second: the server reads it in (at least) two chunks.
    String body = initialize();
    String first = head("HTTP/1.1", "Content-Length: " + body.length() + "\r\nConnection: close\r\n")
        + body.substring(0, body.length() / 2);
    String second = body.substring(body.length() / 2);
    StringBuilder received = new StringBuilder();
    HttpTestServer.start(vertx)
        .compose(server -> vertx.createNetClient().connect(server.port(), "127.0.0.1"))
        .compose(socket -> {
          Promise<Void> closed = Promise.promise();
          socket.handler(data -> received.append(data.toString(StandardCharsets.ISO_8859_1)));
          socket.closeHandler(v -> closed.complete());
          return socket.write(first)
              .compose(v -> vertx.timer(100))
              .compose(v -> socket.write(second))
              .compose(v -> closed.future());
        })
        .onComplete(test.succeeding(v -> test.verify(() -> {
          Exchange exchange = new Exchange(received.toString());
          assertEquals(List.of(200), exchange.statuses(), exchange::text);
          assertEquals(V11, new JsonObject(exchange.body()).getJsonObject("result").getString("protocolVersion"),
              exchange::text);
          test.completeNow();
        })));
  }

  @Test
  void answersHttp20InAnHttp1RequestLineWith501AndCloses(Vertx vertx, VertxTestContext test) {
    String body = initialize();
    String bytes = head("HTTP/2.0", "Content-Length: " + body.length() + "\r\n") + body;
    send(vertx, bytes).onComplete(test.succeeding(exchange -> test.verify(() -> {
      // Vert.x answers a version it does not speak itself, before any handler runs (see docs/security.md).
      assertEquals(List.of(501), exchange.statuses(), exchange::text);
      assertNoStackTrace();
      test.completeNow();
    })));
  }
}
