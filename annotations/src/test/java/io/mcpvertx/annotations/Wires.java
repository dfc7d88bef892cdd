package io.mcpvertx.annotations;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One request to a server over either generation: a fresh 2025 session of the given revision, or a 2026-07-28
 * stateless request. Every message the server sends is checked against the revision's official schema, and a
 * violation fails the request.
 */
final class Wires {

  static final String STATELESS = StatelessTestClient.VERSION;

  private Wires() {
  }

  /** The whole response message ({@code result} or {@code error}). */
  static Future<JsonObject> request(Vertx vertx, McpServer server, String version, String method,
      JsonObject params) {
    if (STATELESS.equals(version)) {
      StatelessTestClient client = StatelessTestClient.engine(vertx, server);
      return client.request(method, params).send().map(x -> {
        client.assertNoViolations();
        return x.response();
      });
    }
    return McpTestClient.inProcess(vertx, server).compose(client -> client.initialize(version)
        .compose(init -> client.request(method, params))
        .map(response -> {
          client.assertNoViolations();
          return response;
        }));
  }

  /** A tools/call's result; fails on an error response. */
  static Future<JsonObject> call(Vertx vertx, McpServer server, String version, String tool, JsonObject args) {
    return request(vertx, server, version, "tools/call", new JsonObject().put("name", tool).put("arguments", args))
        .compose(response -> response.containsKey("result") ? Future.succeededFuture(response.getJsonObject("result"))
            : Future.failedFuture(new AssertionError("tools/call " + tool + " failed: " + response.encode())));
  }

  /** A step of a future chain that asserts on the value, for {@code future.map(check(...))}. */
  static <T> Function<T, Void> check(Consumer<T> assertions) {
    return value -> {
      assertions.accept(value);
      return null;
    };
  }

  /** The text of the first content block of a result. */
  static String text(JsonObject result) {
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }
}
