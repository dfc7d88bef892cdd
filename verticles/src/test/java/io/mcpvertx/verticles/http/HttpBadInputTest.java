package io.mcpvertx.verticles.http;

import static io.mcpvertx.verticles.http.HttpChecks.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.testing.LogCapture;
import io.mcpvertx.testing.StatelessTestClient;
import io.mcpvertx.testing.http.HttpReply;
import io.mcpvertx.testing.http.StreamableHttp;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetSocket;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Malformed or contradictory HTTP requests, each answered precisely: the status, a JSON-RPC error body, and no
 * stack trace in the log (a client's mistake is not a server fault). Requests a well-behaved HTTP client cannot
 * send (no {@code Host}, a header twice) are written byte by byte on a socket.
 */
@ExtendWith(VertxExtension.class)
class HttpBadInputTest {

  private static final String V11 = "2025-11-25";
  private static final String MODERN = StatelessTestClient.VERSION;

  /** What is logged, from every logger, while a test runs. */
  private LogCapture logs;

  @BeforeEach
  void catchTraces() {
    logs = LogCapture.start();
  }

  @AfterEach
  void releaseTraces() {
    logs.close();
  }

  private void assertNoStackTrace() {
    assertTrue(logs.traces().isEmpty(), () -> "stack logs.traces() logged: " + logs.traces().stream()
        .map(r -> r.logger() + ": " + r.message() + " " + r.thrown()).toList());
  }

  /** A response read off a socket: status, headers and body as text. */
  private record RawReply(int status, String head, String body) {

    JsonObject json() {
      return new JsonObject(body);
    }
  }

  /** Writes {@code bytes} on a new connection and reads what comes back until the server closes it. */
  private static Future<RawReply> raw(Vertx vertx, int port, String bytes) {
    Promise<RawReply> reply = Promise.promise();
    vertx.createNetClient().connect(port, "127.0.0.1").onComplete(ar -> {
      if (ar.failed()) {
        reply.fail(ar.cause());
        return;
      }
      NetSocket socket = ar.result();
      Buffer received = Buffer.buffer();
      socket.handler(received::appendBuffer);
      socket.closeHandler(v -> {
        String text = received.toString(StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.1 ") || end < 0) {
          reply.fail(new AssertionError("not an HTTP response: [" + text + "]"));
          return;
        }
        reply.complete(new RawReply(Integer.parseInt(text.substring(9, 12)), text.substring(0, end),
            text.substring(end + 4)));
      });
      socket.write(bytes);
    });
    return reply.future();
  }

  /** A POST of {@code body} with these header lines (each ending CRLF), closing the connection after it. */
  private static String post(String headerLines, JsonObject body) {
    byte[] bytes = body.encode().getBytes(StandardCharsets.UTF_8);
    return "POST " + StreamableHttp.DEFAULT_PATH + " HTTP/1.1\r\n" + headerLines
        + "Content-Type: application/json\r\nAccept: " + StreamableHttp.ACCEPT_BOTH + "\r\n"
        + "Content-Length: " + bytes.length + "\r\nConnection: close\r\n\r\n" + body.encode();
  }

  private static void assertJsonRpcError(RawReply reply, int status, int code) {
    assertEquals(status, reply.status(), reply::toString);
    assertTrue(reply.head().toLowerCase().contains("content-type: application/json"), reply::toString);
    JsonObject error = reply.json().getJsonObject("error");
    assertEquals(code, error.getInteger("code"), reply::toString);
  }

  @Test
  void answersARequestWithoutHostWith400AndNoStackTrace(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> raw(vertx, server.port(), post("", StreamableHttp.initializeRequest(V11))))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertJsonRpcError(reply, 400, -32000);
          assertNoStackTrace();
          test.completeNow();
        })));
  }

  @Test
  void answersTwoHostHeadersWith400(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> raw(vertx, server.port(), post("Host: localhost\r\nHost: 127.0.0.1\r\n",
            StreamableHttp.initializeRequest(V11))))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertJsonRpcError(reply, 400, -32000);
          assertNoStackTrace();
          test.completeNow();
        })));
  }

  @Test
  void answersTwoMcpMethodHeadersWithHeaderMismatch(Vertx vertx, VertxTestContext test) {
    JsonObject discover = new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "server/discover")
        .put("params", new JsonObject().put("_meta", StatelessTestClient.meta(new JsonObject())));
    HttpTestServer.start(vertx)
        .compose(server -> raw(vertx, server.port(), post("Host: localhost\r\nMCP-Protocol-Version: " + MODERN
            + "\r\nMcp-Method: server/discover\r\nMcp-Method: server/discover\r\n", discover)))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertJsonRpcError(reply, 400, -32020);
          assertEquals(1, reply.json().getInteger("id"), "the request's id is known: it is echoed");
          assertNoStackTrace();
          test.completeNow();
        })));
  }

  @Test
  void aWellFormedRawRequestIsServed(Vertx vertx, VertxTestContext test) {
    // The control for the cases above: the same bytes with one Host are an ordinary initialize.
    HttpTestServer.start(vertx)
        .compose(server -> raw(vertx, server.port(), post("Host: localhost\r\n",
            StreamableHttp.initializeRequest(V11))))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertEquals(200, reply.status(), reply::toString);
          test.completeNow();
        })));
  }

  @ParameterizedTest
  @ValueSource(strings = {"application/json;q=0, text/event-stream;q=0", "application/json;q=0.0, text/event-stream",
      "application/json, text/event-stream; q=0.000", "*/*;q=0", "application/json, text/event-stream;q=0, */*"})
  void rejectsPostThatRefusesEitherTypeWithQZeroWith406(String accept, Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().post(StreamableHttp.postHeaders().set("Accept", accept),
            StreamableHttp.initializeRequest(V11)).map(reply -> {
              test.verify(() -> {
                assertRejected(reply, 406);
                assertEquals(0, server.http.sessionCount());
              });
              return reply;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"application/json;q=0.5, text/event-stream;q=0.1", "*/*;q=0.2",
      "application/json, text/*;q=1"})
  void acceptsPostWhoseQValuesAdmitBothTypes(String accept, Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().post(StreamableHttp.postHeaders().set("Accept", accept),
            StreamableHttp.initializeRequest(V11)))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertEquals(200, reply.status(), reply::toString);
          test.completeNow();
        })));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "\"tools\"", "[]"})
  void answersListenWithoutANotificationsObjectWith400(String notifications, Vertx vertx, VertxTestContext test) {
    JsonObject params = notifications.isEmpty() ? new JsonObject()
        : new JsonObject().put("notifications", io.vertx.core.json.Json.decodeValue(notifications));
    HttpTestServer.start(vertx)
        .compose(server -> StatelessTestClient.over(vertx, server.client().stateless())
            .request("subscriptions/listen", params).send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          x.assertError(-32602, 400);
          assertTrue(x.notifications().isEmpty(), "nothing acknowledged: " + x.notifications());
          test.completeNow();
        })));
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"not\":\"a token\"}", "1.5", "true"})
  void answersAProgressTokenOfAnotherTypeWithInvalidParams(String token, Vertx vertx, VertxTestContext test) {
    Object value = io.vertx.core.json.Json.decodeValue(token);
    JsonObject arguments = new JsonObject().put("text", "hi");
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11).compose(session -> session.post(session.request(
            "tools/call", new JsonObject().put("name", "echo").put("arguments", arguments)
                .put("_meta", new JsonObject().put("progressToken", value)))))
            .map(reply -> {
              test.verify(() -> assertEquals(-32602, reply.messages().get(0).getJsonObject("error")
                  .getInteger("code"), reply::toString));
              return reply;
            })
            .compose(r -> StatelessTestClient.over(vertx, server.client().stateless())
                .request("tools/call", new JsonObject().put("name", "echo").put("arguments", arguments))
                .meta(StatelessTestClient.meta(new JsonObject()).put("progressToken", value)).send()))
        .onComplete(test.succeeding(x -> test.verify(() -> {
          x.assertError(-32602, 400);
          test.completeNow();
        })));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2026-07-28", "1999-01-01"})
  void answersAVersionHeaderNoSessionSpeaksWith400NamingBoth(String header, Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11))
        .compose(session -> session.post(session.request("tools/list", null),
            session.postHeaders().set("MCP-Protocol-Version", header)))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          String message = assertRejected(reply, 400).getString("message");
          assertTrue(message.contains(header) && message.contains(V11), message);
          assertNoStackTrace();
          test.completeNow();
        })));
  }

  @Test
  void servesAnotherSessionRevisionInTheHeaderAtTheNegotiatedOne(Vertx vertx, VertxTestContext test) {
    // Decided, not overlooked: conformance clients send 2025-03-26 on sessions negotiated later.
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11))
        .compose(session -> session.post(session.request("tools/list", null),
            session.postHeaders().set("MCP-Protocol-Version", "2025-06-18")))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertEquals(200, reply.status(), reply::toString);
          HttpChecks.assertSchemaValid(V11, reply.messages().get(0), "tools/list");
          test.completeNow();
        })));
  }
}
