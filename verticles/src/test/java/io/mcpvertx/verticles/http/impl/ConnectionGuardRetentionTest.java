package io.mcpvertx.verticles.http.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.PoolOptions;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the connection guard holds of a busy keep-alive connection between two sweeps: the request in progress
 * only, not every request the connection sent since the last sweep (which, under load, is enough for the collector
 * to promote them). The guard here never sweeps, so only its forgetting on arrival keeps the count down.
 */
@ExtendWith(VertxExtension.class)
class ConnectionGuardRetentionTest {

  private static final int REQUESTS = 200;

  private HttpServer server;
  private HttpClient client;

  @BeforeEach
  void start(Vertx vertx, VertxTestContext ctx) {
    ConnectionGuard guard = new ConnectionGuard(vertx, new McpHttpServerOptions(), new AtomicInteger());
    // Each answer says how many requests the guard holds once the request was admitted; the server's handlers run
    // on one event loop, the guard's own.
    server = vertx.createHttpServer()
        .connectionHandler(guard::connected)
        .requestHandler(request -> {
          if (guard.admit(request)) {
            request.response().end(Integer.toString(guard.requestsHeld()));
          }
        });
    client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true), new PoolOptions().setHttp1MaxSize(1));
    server.listen(0, "127.0.0.1").onComplete(ctx.succeedingThenComplete());
  }

  @AfterEach
  void stop(VertxTestContext ctx) {
    client.close().compose(v -> server.close()).onComplete(ctx.succeedingThenComplete());
  }

  @Test
  void holdsOnlyTheRequestInProgressOfABusyKeepAliveConnection(Vertx vertx, VertxTestContext ctx) {
    // On a Vert.x context: composed from the test's thread, a body could be asked for after its response ended on
    // the event loop, and that future never completes.
    vertx.getOrCreateContext().runOnContext(v -> sendAll(ctx));
  }

  private void sendAll(VertxTestContext ctx) {
    List<Integer> held = new ArrayList<>();
    Future<Void> chain = Future.succeededFuture();
    for (int i = 0; i < REQUESTS; i++) {
      chain = chain.compose(v -> client.request(HttpMethod.GET, server.actualPort(), "127.0.0.1", "/")
          .compose(request -> request.send())
          .compose(response -> response.body())
          .map(body -> {
            held.add(Integer.parseInt(body.toString()));
            return null;
          }));
    }
    chain.onComplete(ctx.succeeding(v -> ctx.verify(() -> {
      assertEquals(REQUESTS, held.size());
      // One connection for all of them (a pool of one, kept alive), and at each arrival only that request held.
      assertEquals(List.of(1), held.stream().distinct().toList(),
          "requests held by the guard at each arrival, over " + REQUESTS + " requests on one connection");
      ctx.completeNow();
    })));
  }
}
