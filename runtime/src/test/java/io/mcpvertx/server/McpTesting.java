package io.mcpvertx.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Small helpers shared by the behaviour tests of this package. */
final class McpTesting {

  private McpTesting() {
  }

  /**
   * A client on a fresh in-process session, initialized and operating: {@code notifications/initialized} is sent
   * and a {@code ping} round trip follows, so the server has processed the notification when this completes.
   */
  static Future<McpTestClient> open(Vertx vertx, McpServer server, String version) {
    return open(vertx, server, version, new JsonObject());
  }

  static Future<McpTestClient> open(Vertx vertx, McpServer server, String version, JsonObject capabilities) {
    return McpTestClient.inProcess(vertx, server)
        .compose(client -> client.initialize(version, capabilities)
            .compose(init -> client.call("ping", null))
            .map(pong -> client));
  }

  /** The error of a response, failing the test if the response is a result. */
  static JsonObject errorOf(JsonObject response) {
    assertTrue(response.containsKey("error"), () -> "expected an error response, got " + response.encode());
    return response.getJsonObject("error");
  }

  /** Asserts the response is an error with {@code code}, and returns the error. */
  static JsonObject assertError(JsonObject response, int code) {
    JsonObject error = errorOf(response);
    assertEquals(code, error.getInteger("code"), () -> "unexpected error " + error.encode());
    return error;
  }

  /** Every message the server sent matched the official schema of the negotiated revision. */
  static void assertNoViolations(McpTestClient client) {
    assertTrue(client.violations().isEmpty(), () -> "schema violations: " + client.violations());
  }

  /** An object schema with string properties, the listed ones required. */
  static JsonObject stringProperties(String... required) {
    JsonObject properties = new JsonObject();
    for (String name : required) {
      properties.put(name, new JsonObject().put("type", "string"));
    }
    return new JsonObject().put("type", "object").put("properties", properties)
        .put("required", new JsonArray(java.util.List.of((Object[]) required)));
  }

  static JsonObject toolCall(String name, JsonObject arguments) {
    JsonObject params = new JsonObject().put("name", name);
    if (arguments != null) {
      params.put("arguments", arguments);
    }
    return params;
  }

  /** The first content block of a tool or prompt result. */
  static JsonObject firstContent(JsonObject result) {
    return result.getJsonArray("content").getJsonObject(0);
  }
}
