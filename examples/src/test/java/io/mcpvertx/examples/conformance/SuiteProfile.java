package io.mcpvertx.examples.conformance;

import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;

/**
 * The conformance suite's client, as a profile of {@link McpTestClient}: connected to a fresh conformance server,
 * it declares {@code sampling} and {@code elicitation}, initializes, and sends {@code notifications/initialized}.
 */
final class SuiteProfile {

  /** The revision the suite's TypeScript client asks for. */
  static final String LATEST = "2025-11-25";

  private SuiteProfile() {
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
      return client.connect(version, capabilities);
    });
  }
}
