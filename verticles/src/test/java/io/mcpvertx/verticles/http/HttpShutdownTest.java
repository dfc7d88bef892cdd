package io.mcpvertx.verticles.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.testing.http.HttpReply;
import io.mcpvertx.testing.http.StreamableHttp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A graceful stop: a request in flight is answered, a new connection is not taken, and the server closes once the
 * answer is out (or at the deadline).
 */
@ExtendWith(VertxExtension.class)
class HttpShutdownTest {

  private static final String V11 = "2025-11-25";

  @Test
  void aRequestInFlightIsAnsweredAndNewConnectionsAreRefused(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> server.client().initialize(V11).compose(session -> {
      Future<HttpReply> inFlight = session.post(session.toolCall("gated", new JsonObject(), "t"));
      return server.tools.reachedGate.future().compose(v -> {
        Future<Void> stopped = server.http.shutdown(30_000);
        // The listener is closed at once; a fresh client cannot connect any more.
        return vertx.timer(200).compose(t -> StreamableHttp.http1(vertx, server.http.actualPort())
                .initializeOnly(V11).map(r -> "connected: " + r.status()).otherwise(e -> "refused"))
            .compose(fresh -> {
              test.verify(() -> {
                assertEquals("refused", fresh);
                assertTrue(!stopped.isComplete(), "the shutdown waits for the call in flight");
              });
              server.tools.gate.complete();
              return inFlight;
            })
            .compose(reply -> {
              test.verify(() -> {
                assertEquals(200, reply.status(), reply::toString);
                JsonObject last = reply.messages().get(reply.messages().size() - 1);
                assertEquals("released", last.getJsonObject("result").getJsonArray("content").getJsonObject(0)
                    .getString("text"));
              });
              return stopped;
            });
      });
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void theDeadlineEndsAShutdownThatWouldWaitForever(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> server.client().initialize(V11).compose(session -> {
      session.post(session.toolCall("ticker", new JsonObject(), "t"));
      return vertx.timer(100).compose(t -> server.http.shutdown(300));
    })).onComplete(test.succeedingThenComplete());
  }
}
