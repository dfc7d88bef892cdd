package io.mcpvertx.examples.conformance;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.StatelessServer;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.SpecSchemas;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fixtures of the 2026-07-28 scenarios ({@code server-stateless}, {@code input-required-result-*},
 * {@code http-custom-header-server-validation}) as the suite exercises them, driven through the server's
 * {@link StatelessServer} without HTTP; and the same handlers over a 2025 session.
 */
@ExtendWith(VertxExtension.class)
class StatelessScenariosTest {

  private static final String VERSION = "2026-07-28";
  private static final JsonObject SUITE_CAPABILITIES = new JsonObject().put("sampling", new JsonObject())
      .put("elicitation", new JsonObject()).put("roots", new JsonObject().put("listChanged", true));

  private McpServer server;
  private StatelessTestClient client;

  @BeforeEach
  void setUp(Vertx vertx) {
    server = ConformanceFixtures.create(vertx);
    client = StatelessTestClient.engine(vertx, server);
  }

  private static JsonObject meta(JsonObject capabilities) {
    return new JsonObject().put(StatelessServer.META_PROTOCOL_VERSION, VERSION)
        .put(StatelessServer.META_CLIENT_INFO, new JsonObject().put("name", "conformance-test-client")
            .put("version", "1.0.0"))
        .put(StatelessServer.META_CLIENT_CAPABILITIES, capabilities);
  }

  /** What a request yields: the response and the notifications before it. */
  record Outcome(JsonObject response, List<JsonObject> notifications) {

    JsonObject result() {
      assertTrue(response.containsKey("result"), response::encode);
      return response.getJsonObject("result");
    }
  }

  private Future<Outcome> send(String method, JsonObject params, JsonObject capabilities) {
    return client.request(method, params).meta(meta(capabilities)).send()
        .map(x -> new Outcome(x.response(), x.notifications()));
  }

  private Future<Outcome> call(String tool, JsonObject extra) {
    JsonObject params = new JsonObject().put("name", tool).put("arguments", new JsonObject());
    return send("tools/call", extra == null ? params : params.mergeIn(extra), SUITE_CAPABILITIES);
  }

  private static void assertSchema(String type, JsonObject instance) {
    List<String> violations = SpecSchemas.violations(VERSION, type, instance);
    assertTrue(violations.isEmpty(), () -> type + ": " + violations + " in " + instance.encode());
  }

  private static JsonObject accept(String field, Object value) {
    return new JsonObject().put("action", "accept").put("content", new JsonObject().put(field, value));
  }

  @Test
  void diagnosticToolsBehaveAsServerStatelessExpects(VertxTestContext test) {
    send("tools/call", new JsonObject().put("name", "test_missing_capability").put("arguments", new JsonObject()),
        new JsonObject())
        .map(missing -> {
          JsonObject error = missing.response().getJsonObject("error");
          assertEquals(-32021, error.getInteger("code"));
          assertEquals(new JsonObject().put("sampling", new JsonObject()),
              error.getJsonObject("data").getJsonObject("requiredCapabilities"));
          return null;
        })
        .compose(v -> send("tools/call", new JsonObject().put("name", "test_logging_tool"), new JsonObject()))
        .map(logging -> {
          assertEquals("Logging evaluated", text(logging.result()));
          assertTrue(logging.notifications().isEmpty(), "no logLevel, no log");
          return null;
        })
        .compose(v -> send("tools/call", new JsonObject().put("name", "test_streaming_elicitation"),
            new JsonObject().put("elicitation", new JsonObject())))
        .map(streaming -> {
          // the question comes back as a result, never as a request on the stream
          assertEquals("input_required", streaming.result().getString("resultType"));
          assertTrue(streaming.notifications().stream().allMatch(n -> !n.containsKey("id")));
          return null;
        })
        .compose(v -> send("tools/list", new JsonObject(), new JsonObject()))
        .onComplete(test.succeeding(list -> test.verify(() -> {
          List<String> names = list.result().getJsonArray("tools").stream()
              .map(t -> ((JsonObject) t).getString("name")).toList();
          assertEquals("test_simple_text", names.get(0), "http-header-validation calls the first tool with {}");
          assertTrue(names.containsAll(List.of("test_missing_capability", "test_streaming_elicitation",
              "test_logging_tool", "test_custom_header")));
          JsonObject custom = list.result().getJsonArray("tools").stream().map(t -> (JsonObject) t)
              .filter(t -> t.getString("name").equals("test_custom_header")).findFirst().orElseThrow();
          assertEquals("Region", custom.getJsonObject("inputSchema").getJsonObject("properties")
              .getJsonObject("region").getString("x-mcp-header"));
          test.completeNow();
        })));
  }

  @Test
  void triggersTellListenersTheListChanged(VertxTestContext test) {
    client.request("subscriptions/listen", new JsonObject().put("notifications", new JsonObject()
            .put("toolsListChanged", true).put("promptsListChanged", true)))
        .meta(meta(new JsonObject())).id(JsonRpcId.of(1000)).listen()
        .compose(listening -> listening.frame(0)
            .compose(ack -> call("test_trigger_tool_change", null))
            .compose(tool -> call("test_trigger_prompt_change", null).map(prompt -> List.of(tool, prompt)))
            .map(results -> {
              for (Outcome result : results) {
                assertEquals("Mutation triggered", text(result.result()));
              }
              return listening;
            }))
        .compose(listening -> listening.frame(2).compose(third -> listening.frames()))
        .compose(frames -> send("tools/list", new JsonObject(), new JsonObject()).map(list -> {
          assertEquals(List.of("notifications/subscriptions/acknowledged", "notifications/tools/list_changed",
              "notifications/prompts/list_changed"), frames.stream().map(f -> f.getString("method")).toList());
          // re-published, not added: the list is the same length and order as before
          assertEquals(1, list.result().getJsonArray("tools").stream()
              .filter(t -> ((JsonObject) t).getString("name").equals("test_trigger_tool_change")).count());
          return list;
        }))
        .onComplete(test.succeeding(list -> test.completeNow()));
  }

  @Test
  void inputRequiredFixturesUseTheScenarioKeys(VertxTestContext test) {
    call("test_input_required_result_elicitation", null)
        .compose(first -> {
          JsonObject result = first.result();
          assertSchema("InputRequiredResult", result);
          assertEquals("elicitation/create", result.getJsonObject("inputRequests").getJsonObject("user_name")
              .getString("method"));
          return call("test_input_required_result_elicitation", new JsonObject()
              .put("inputResponses", new JsonObject().put("user_name", accept("name", "Alice")))
              .put("requestState", result.getString("requestState")));
        })
        .map(done -> {
          assertEquals("complete", done.result().getString("resultType"));
          assertSchema("CallToolResult", done.result());
          return null;
        })
        .compose(v -> call("test_input_required_result_multiple_inputs", null))
        .map(multiple -> {
          JsonObject requests = multiple.result().getJsonObject("inputRequests");
          assertEquals(Set.of("elicitation/create", "sampling/createMessage", "roots/list"),
              Set.copyOf(requests.stream().map(e -> ((JsonObject) e.getValue()).getString("method")).toList()));
          assertSchema("InputRequiredResult", multiple.result());
          return null;
        })
        .compose(v -> send("tools/call", new JsonObject().put("name", "test_input_required_result_capabilities")
            .put("arguments", new JsonObject()), new JsonObject().put("sampling", new JsonObject())))
        .map(capabilities -> {
          JsonObject requests = capabilities.result().getJsonObject("inputRequests");
          assertFalse(requests.isEmpty());
          assertTrue(requests.stream().noneMatch(e -> ((JsonObject) e.getValue()).getString("method")
              .equals("elicitation/create")));
          return null;
        })
        .compose(v -> send("prompts/get", new JsonObject().put("name", InputRequiredFixtures.PROMPT),
            SUITE_CAPABILITIES))
        .compose(prompt -> send("prompts/get", new JsonObject().put("name", InputRequiredFixtures.PROMPT)
            .put("inputResponses", new JsonObject().put("user_context", accept("context", "test context")))
            .put("requestState", prompt.result().getString("requestState")), SUITE_CAPABILITIES))
        .onComplete(test.succeeding(prompt -> test.verify(() -> {
          assertSchema("GetPromptResult", prompt.result());
          assertTrue(prompt.result().getJsonArray("messages").getJsonObject(0).getJsonObject("content")
              .getString("text").contains("test context"));
          test.completeNow();
        })));
  }

  @Test
  void theSameHandlersWorkOverASession(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, server).compose(client -> {
      client.onRequest("elicitation/create", params -> Future.succeededFuture(accept(
          params.getString("message").startsWith("Step 2") ? "color" : "name",
          params.getString("message").startsWith("Step 2") ? "blue" : "Alice")));
      return client.initialize("2025-11-25", SUITE_CAPABILITIES)
          .compose(init -> client.toolsCall("test_input_required_result_multi_round", null))
          .map(result -> {
            assertEquals("Alice's favorite color is blue", text(result));
            client.assertNoViolations();
            return null;
          });
    }).onComplete(test.succeedingThenComplete());
  }

  private static String text(JsonObject result) {
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }
}
