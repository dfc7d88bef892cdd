package io.mcpvertx.examples.hello;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.mcpvertx.examples.conformance.ConformanceFixtures;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.StatelessServer;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What each example advertises, per revision: a capability for each kind of feature it registered and nothing for
 * the kinds it did not ({@code initialize} for the 2025 revisions, {@code server/discover} for 2026-07-28).
 */
@ExtendWith(VertxExtension.class)
class AdvertisedCapabilitiesTest {

  private static final String STATELESS = "2026-07-28";
  private static final JsonObject LIST_CHANGED = new JsonObject().put("listChanged", true);

  /** A server with one tool and nothing else, as a team's first server would be. */
  private static McpServer toolsOnly(Vertx vertx) {
    McpServer server = McpServer.create(vertx);
    server.tool(Tool.builder("echo").build(), (args, ctx) -> Future.succeededFuture(ToolResult.text("echo")));
    return server;
  }

  /** The capabilities {@code server} advertises at {@code version}. */
  private static Future<JsonObject> advertised(Vertx vertx, McpServer server, String version) {
    if (!version.equals(STATELESS)) {
      return McpTestClient.inProcess(vertx, server).compose(client -> client.initialize(version))
          .map(result -> result.getJsonObject("capabilities"));
    }
    Promise<JsonObject> promise = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> {
      JsonObject meta = new JsonObject().put(StatelessServer.META_PROTOCOL_VERSION, STATELESS)
          .put(StatelessServer.META_CLIENT_INFO, new JsonObject().put("name", "t").put("version", "1"))
          .put(StatelessServer.META_CLIENT_CAPABILITIES, new JsonObject());
      JsonRpcRequest request = new JsonRpcRequest(JsonRpcId.of(1), "server/discover",
          new JsonObject().put("_meta", meta));
      StatelessServer stateless = server.stateless();
      assertNull(stateless.validate(request));
      stateless.serve(request, null, m -> {
      }).response().map(r -> new JsonObject(server.codec().encode(r)))
          .map(response -> response.getJsonObject("result").getJsonObject("capabilities"))
          .onComplete(promise);
    });
    return promise.future();
  }

  private static void check(Vertx vertx, VertxTestContext test, McpServer server, String version,
      Function<String, JsonObject> expected) {
    advertised(vertx, server, version).onComplete(test.succeeding(capabilities -> test.verify(() -> {
      assertEquals(expected.apply(version), capabilities, version);
      test.completeNow();
    })));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-03-26", "2025-06-18", "2025-11-25", STATELESS})
  void aServerWithOnlyToolsAdvertisesToolsAndLoggingOnly(String version, Vertx vertx, VertxTestContext test) {
    check(vertx, test, toolsOnly(vertx), version, v -> new JsonObject().put("logging", new JsonObject())
        .put("tools", LIST_CHANGED));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-03-26", "2025-06-18", "2025-11-25", STATELESS})
  void helloAdvertisesItsToolItsResourceTemplateAndItsPrompt(String version, Vertx vertx, VertxTestContext test) {
    check(vertx, test, HelloServer.create(vertx), version, v -> new JsonObject().put("logging", new JsonObject())
        .put("tools", LIST_CHANGED)
        .put("resources", new JsonObject().put("subscribe", true).put("listChanged", true))
        .put("prompts", LIST_CHANGED));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-03-26", "2025-06-18", "2025-11-25", STATELESS})
  void theConformanceExampleAdvertisesTasksOnlyWhereItsRevisionHasThem(String version, Vertx vertx,
      VertxTestContext test) {
    advertised(vertx, ConformanceFixtures.create(vertx), version).onComplete(test.succeeding(capabilities ->
        test.verify(() -> {
          assertEquals(version.equals("2025-11-25"), capabilities.containsKey("tasks"), version);
          assertEquals(version.equals(STATELESS), capabilities.containsKey("extensions"), version);
          if (version.equals(STATELESS)) {
            assertEquals(new JsonObject().put("io.modelcontextprotocol/tasks", new JsonObject()),
                capabilities.getJsonObject("extensions"));
          }
          assertEquals(LIST_CHANGED, capabilities.getJsonObject("tools"), version);
          test.completeNow();
        })));
  }
}
