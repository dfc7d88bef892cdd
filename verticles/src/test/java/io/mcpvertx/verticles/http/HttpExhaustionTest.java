package io.mcpvertx.verticles.http;

import static io.mcpvertx.verticles.http.HttpChecks.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.testing.http.RawHttp;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.testing.http.StreamableHttpSession;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetSocket;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * No connection is held forever and no client takes every slot: silent and slowloris connections, a body that
 * never arrives, an idle kept-alive connection, a stream past its maximum duration, connections past the cap and
 * sessions past one client's share. Deadlines are short here so that each test ends soon; the assertions are on
 * what happens, never on how fast.
 */
@ExtendWith(VertxExtension.class)
class HttpExhaustionTest {

  private static final String V11 = "2025-11-25";

  private static McpHttpServerOptions shortDeadlines() {
    return new McpHttpServerOptions().setRequestHeaderTimeoutMs(200).setRequestBodyTimeoutMs(200)
        .setConnectionIdleTimeoutMs(200);
  }

  /** Connects, runs {@code talk} on the socket, and completes with what came back once the server closed it. */
  private static Future<String> connection(Vertx vertx, int port, Consumer<NetSocket> talk) {
    Promise<String> closed = Promise.promise();
    vertx.createNetClient().connect(port, "127.0.0.1").onComplete(ar -> {
      if (ar.failed()) {
        closed.fail(ar.cause());
        return;
      }
      NetSocket socket = ar.result();
      Buffer received = Buffer.buffer();
      socket.handler(received::appendBuffer);
      socket.closeHandler(v -> closed.complete(received.toString(StandardCharsets.ISO_8859_1)));
      talk.accept(socket);
    });
    return closed.future();
  }

  @Test
  void closesAConnectionThatSendsNothing(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx, shortDeadlines())
        .compose(server -> connection(vertx, server.port(), socket -> { }))
        .onComplete(test.succeeding(received -> test.verify(() -> {
          assertEquals("", received);
          test.completeNow();
        })));
  }

  @Test
  void closesASlowlorisConnectionThatDribblesItsHeadForever(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx, shortDeadlines())
        .compose(server -> {
          long[] dribble = {-1};
          return connection(vertx, server.port(), socket -> {
            socket.write("POST /mcp HTTP/1.1\r\nHost: localhost\r\n");
            dribble[0] = vertx.setPeriodic(20, t -> socket.write("X-Slow: a\r\n"));
          }).onComplete(ar -> vertx.cancelTimer(dribble[0]));
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void answers408WhenTheBodyDoesNotArriveInTime(Vertx vertx, VertxTestContext test) {
    String head = "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: "
        + StreamableHttp.ACCEPT_BOTH + "\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\":";
    // The body deadline shorter than the idle one, as by default: the 408 comes before the socket's silence counts.
    HttpTestServer.start(vertx, new McpHttpServerOptions().setRequestBodyTimeoutMs(200))
        .compose(server -> RawHttp.exchange(vertx, server.port(), head))
        .onComplete(test.succeeding(exchange -> test.verify(() -> {
          assertEquals(List.of(408), exchange.statuses(), exchange::text);
          assertEquals(-32000, new JsonObject(exchange.body()).getJsonObject("error").getInteger("code"));
          test.completeNow();
        })));
  }

  @Test
  void closesAKeptAliveConnectionIdleAfterItsAnswer(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx, shortDeadlines())
        .compose(server -> RawHttp.exchange(vertx, server.port(),
            "GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n"))
        .onComplete(test.succeeding(exchange -> test.verify(() -> {
          assertEquals(List.of(200), exchange.statuses(), exchange::text);
          test.completeNow();
        })));
  }

  @Test
  void keepsAStreamOpenPastTheIdleDeadlineAndCutsItAtItsMaximumDuration(Vertx vertx, VertxTestContext test) {
    long maxStream = 2_000;
    HttpTestServer.start(vertx, new McpHttpServerOptions().setConnectionIdleTimeoutMs(400)
            .setRequestHeaderTimeoutMs(400).setHeartbeatIntervalMs(100).setMaxStreamDurationMs(maxStream))
        .compose(server -> server.client().initialize(V11))
        .compose(session -> {
          long opened = System.nanoTime();
          return session.listen()
              .compose(stream -> stream.over().map(v -> (System.nanoTime() - opened) / 1_000_000));
        })
        .onComplete(test.succeeding(lastedMs -> test.verify(() -> {
          // Cut by its own bound, never by the idle deadline (five times shorter).
          assertTrue(lastedMs >= maxStream, () -> "the stream ended after " + lastedMs + " ms");
          test.completeNow();
        })));
  }

  /** A connection that has been answered once and stays open (kept alive). */
  private static Future<NetSocket> keptAlive(Vertx vertx, int port) {
    Promise<NetSocket> answered = Promise.promise();
    vertx.createNetClient().connect(port, "127.0.0.1").onComplete(ar -> {
      if (ar.failed()) {
        answered.fail(ar.cause());
        return;
      }
      NetSocket socket = ar.result();
      socket.handler(bytes -> answered.tryComplete(socket));
      socket.write("GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n");
    });
    return answered.future();
  }

  @Test
  void closesAConnectionPastTheCapUnanswered(Vertx vertx, VertxTestContext test) {
    String probe = "GET /health/live HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    HttpTestServer.start(vertx, new McpHttpServerOptions().setMaxConnections(2)).compose(server ->
        keptAlive(vertx, server.port()).compose(first -> keptAlive(vertx, server.port())
            .compose(second -> RawHttp.exchange(vertx, server.port(), probe))
            .compose(refused -> {
              test.verify(() -> assertEquals(List.of(), refused.statuses(), refused::text));
              return first.close();
            })
            // The server learns of the close on its own time: retried until it has.
            .compose(v -> Poll.retry(vertx, () -> RawHttp.exchange(vertx, server.port(), probe),
                exchange -> !exchange.statuses().isEmpty()))))
        .onComplete(test.succeeding(exchange -> test.verify(() -> {
          assertEquals(List.of(200), exchange.statuses(), exchange::text);
          test.completeNow();
        })));
  }

  @Test
  void refusesASessionPastOneClientsShareAndServesAgainOnceOneEnds(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx, new McpHttpServerOptions().setMaxSessionsPerClient(2)).compose(server -> {
      StreamableHttp client = server.client();
      return Future.all(client.initialize(V11), client.initialize(V11))
          .compose(two -> client.initializeOnly(V11).compose(refused -> {
            test.verify(() -> {
              JsonObject error = assertRejected(refused, 503);
              assertEquals(JsonRpcErrorCodes.SERVER_OVERLOADED, error.getInteger("code"));
              assertEquals(2, server.http.sessionCount());
            });
            return two.<StreamableHttpSession>resultAt(0).delete();
          }))
          .compose(deleted -> client.initialize(V11));
    }).onComplete(test.succeedingThenComplete());
  }
}
