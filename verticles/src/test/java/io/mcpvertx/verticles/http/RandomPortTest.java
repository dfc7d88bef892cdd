package io.mcpvertx.verticles.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Port 0 picks a free port that every HTTP verticle of the endpoint shares, and only they. */
@ExtendWith(VertxExtension.class)
class RandomPortTest {

  @Test
  void severalVerticlesShareOneRandomPortPerEndpoint(Vertx vertx, VertxTestContext test) {
    McpHttpServer first = McpHttpServer.create(vertx, McpServer.create(vertx), new McpHttpServerOptions().setPort(0));
    McpHttpServer second = McpHttpServer.create(vertx, McpServer.create(vertx), new McpHttpServerOptions().setPort(0));
    HttpClient client = vertx.createHttpClient();
    first.listen(3)
        .compose(v -> second.listen(2))
        .compose(v -> {
          assertTrue(first.actualPort() > 0, "port " + first.actualPort());
          assertTrue(second.actualPort() > 0, "port " + second.actualPort());
          assertNotEquals(first.actualPort(), second.actualPort());
          // A GET without a session reaches the endpoint, which refuses it: the port serves MCP.
          return Future.all(get(client, first.actualPort()), get(client, second.actualPort()));
        })
        .compose(statuses -> {
          assertEquals(400, (int) statuses.resultAt(0));
          assertEquals(400, (int) statuses.resultAt(1));
          return Future.all(first.close(), second.close());
        })
        .onComplete(test.succeedingThenComplete());
  }

  private static Future<Integer> get(HttpClient client, int port) {
    return client.request(HttpMethod.GET, port, "127.0.0.1", "/mcp")
        .compose(request -> request.putHeader("Accept", "text/event-stream").send())
        .map(HttpClientResponse::statusCode);
  }
}
