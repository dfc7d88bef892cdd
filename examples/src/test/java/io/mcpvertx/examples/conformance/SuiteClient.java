package io.mcpvertx.examples.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;

/**
 * Connects a test client to a fresh conformance server the way the suite's client does: it declares
 * {@code sampling} and {@code elicitation}, initializes, and sends {@code notifications/initialized}.
 */
final class SuiteClient {

  /** The revision the suite's TypeScript client asks for. */
  static final String LATEST = "2025-11-25";

  private SuiteClient() {
  }

  /** The capabilities the suite's client declares. */
  static JsonObject capabilities() {
    return new JsonObject().put("sampling", new JsonObject()).put("elicitation", new JsonObject());
  }

  static Future<McpTestClient> connect(Vertx vertx, String version) {
    return connect(vertx, version, capabilities(), client -> {
    });
  }

  /**
   * @param setup runs before initialize, to register the answers to the server's requests
   */
  static Future<McpTestClient> connect(Vertx vertx, String version, JsonObject capabilities,
      Consumer<McpTestClient> setup) {
    return McpTestClient.inProcess(vertx, ConformanceFixtures.create(vertx)).compose(client -> {
      setup.accept(client);
      return client.initialize(version, capabilities).map(init -> {
        assertEquals(version, init.getString("protocolVersion"));
        return client;
      });
    });
  }

  /** {@code tools/call} with these arguments; null leaves the {@code arguments} member out. */
  static Future<JsonObject> callTool(McpTestClient client, String name, JsonObject arguments) {
    JsonObject params = new JsonObject().put("name", name);
    if (arguments != null) {
      params.put("arguments", arguments);
    }
    return client.call("tools/call", params);
  }

  static void assertNoViolations(McpTestClient client) {
    assertTrue(client.violations().isEmpty(), () -> "schema violations: " + client.violations());
  }
}
