package io.mcpvertx.server.stateless;

import static io.mcpvertx.testing.StatelessTestClient.VERSION;
import static io.mcpvertx.server.stateless.StatelessFixtures.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The methods of 2026-07-28: server/discover, the feature methods with {@code resultType} and caching hints, the
 * methods the revision removed (HTTP 404, -32601) while sessions of the same server keep them, and the
 * notifications a request may cause.
 */
@ExtendWith(VertxExtension.class)
class StatelessMethodsTest {

  /** The methods 2026-07-28 removed, with params a 2025 session accepts. */
  private static final List<String> REMOVED = List.of("initialize", "ping", "logging/setLevel",
      "resources/subscribe", "resources/unsubscribe");

  private McpServer server;
  private StatelessTestClient client;

  @BeforeEach
  void setUp(Vertx vertx) {
    server = StatelessFixtures.server(vertx);
    client = StatelessTestClient.engine(vertx, server);
  }

  @Test
  void discoverNamesTheVersionsTheCapabilitiesAndTheServer(VertxTestContext test) {
    client.request("server/discover").send().onComplete(test.succeeding(x -> test.verify(() -> {
      JsonObject result = x.complete();
      assertTrue(result.getJsonArray("supportedVersions").contains(VERSION));
      JsonObject capabilities = result.getJsonObject("capabilities");
      assertEquals(new JsonObject().put("listChanged", true), capabilities.getJsonObject("tools"));
      assertEquals(new JsonObject().put("listChanged", true), capabilities.getJsonObject("prompts"));
      assertTrue(capabilities.containsKey("resources"));
      assertTrue(capabilities.containsKey("completions"));
      assertEquals("Fixtures for the stateless tests", result.getString("instructions"));
      assertEquals(new JsonObject().put("name", "stateless-fixtures").put("version", "9.9.9"),
          result.getJsonObject("_meta").getJsonObject("io.modelcontextprotocol/serverInfo"));
      assertEquals(60_000, result.getLong("ttlMs"));
      assertEquals("public", result.getString("cacheScope"));
      client.assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void listsAndReadsCarryCachingHints(VertxTestContext test) {
    List<String> lists = List.of("tools/list", "prompts/list", "resources/list", "resources/templates/list");
    Future<Void> chain = Future.succeededFuture();
    for (String method : lists) {
      chain = chain.compose(v -> client.request(method).send()).map(x -> {
        JsonObject result = x.complete();
        assertEquals(60_000, result.getLong("ttlMs"), method);
        assertEquals("public", result.getString("cacheScope"), method);
        return null;
      });
    }
    chain.compose(v -> client.request("resources/read", new JsonObject().put("uri", StatelessFixtures.DOC)).send())
        .map(x -> {
          JsonObject result = x.complete();
          assertEquals(5_000, result.getLong("ttlMs"));
          assertEquals("private", result.getString("cacheScope"));
          assertEquals("the document", result.getJsonArray("contents").getJsonObject(0).getString("text"));
          return null;
        })
        .compose(v -> client.request("resources/read", new JsonObject().put("uri", "test://items/7")).send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          assertEquals(5_000, x.complete().getLong("ttlMs"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void toolsListIsInRegistrationOrderEveryTime(VertxTestContext test) {
    client.request("tools/list").send()
        .compose(first -> client.request("tools/list").send().map(second -> {
          assertEquals(names(first.complete().getJsonArray("tools")), names(second.complete().getJsonArray("tools")));
          assertEquals("echo", names(first.complete().getJsonArray("tools")).get(0));
          return second;
        }))
        .onComplete(test.succeeding(x -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void everyResultSaysItIsComplete(VertxTestContext test) {
    client.request("tools/call", call("echo", new JsonObject().put("text", "hi"))).send()
        .map(x -> {
          JsonObject result = x.complete();
          assertEquals("hi", result.getJsonArray("content").getJsonObject(0).getString("text"));
          assertEquals("stateless-fixtures", result.getJsonObject("_meta")
              .getJsonObject("io.modelcontextprotocol/serverInfo").getString("name"));
          return null;
        })
        // an argument that does not match the schema is a tool error (2025-11-25 on), still a complete result
        .compose(v -> client.request("tools/call", call("echo", new JsonObject())).send())
        .map(x -> {
          assertTrue(x.complete().getBoolean("isError"));
          return null;
        })
        .compose(v -> client.request("completion/complete", new JsonObject()
            .put("ref", new JsonObject().put("type", "ref/prompt").put("name", "context_prompt"))
            .put("argument", new JsonObject().put("name", "topic").put("value", "al"))).send())
        .map(x -> {
          assertEquals(new JsonArray().add("alpha"), x.complete().getJsonObject("completion").getJsonArray("values"));
          return null;
        })
        .compose(v -> client.request("prompts/get", new JsonObject().put("name", "context_prompt")
            .put("arguments", new JsonObject().put("topic", "t"))
            .put("inputResponses", new JsonObject().put("user_context", StatelessFixtures.accept("context",
                "c")))).send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          assertEquals("t: c", x.complete().getJsonArray("messages").getJsonObject(0).getJsonObject("content")
              .getString("text"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void unknownFeaturesAreInvalidParams(VertxTestContext test) {
    client.request("tools/call", call("nope", null)).send()
        .map(x -> x.assertError(-32602))
        .compose(v -> client.request("prompts/get", new JsonObject().put("name", "nope")).send())
        .map(x -> x.assertError(-32602))
        .compose(v -> client.request("resources/read", new JsonObject().put("uri", "test://missing")).send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          // SEP-2164: -32602 naming the URI, never an empty contents list
          JsonObject error = x.assertError(-32602);
          assertEquals("test://missing", error.getJsonObject("data").getString("uri"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void removedMethodsAreNotFoundHereButStillServeSessions(Vertx vertx, VertxTestContext test) {
    JsonObject subscribe = new JsonObject().put("uri", StatelessFixtures.DOC);
    List<JsonObject> params = List.of(new JsonObject(), new JsonObject(), new JsonObject().put("level", "info"),
        subscribe, subscribe);
    Future<Void> chain = Future.succeededFuture();
    for (int i = 0; i < REMOVED.size(); i++) {
      String method = REMOVED.get(i);
      JsonObject p = params.get(i);
      chain = chain.compose(v -> client.request(method, p).send()).map(x -> {
        x.assertError(-32601);
        return null;
      });
    }
    for (String method : List.of("tasks/result", "tasks/list", "unknown/method", "notifications/initialized")) {
      chain = chain.compose(v -> client.request(method).send()).map(x -> {
        x.assertError(-32601);
        return null;
      });
    }
    chain.compose(v -> McpTestClient.inProcess(vertx, server))
        .compose(session -> session.initialize("2025-11-25").compose(init -> {
          Future<Void> calls = Future.succeededFuture();
          // initialize itself just worked; the others work on the session
          for (int i = 1; i < REMOVED.size(); i++) {
            String method = REMOVED.get(i);
            JsonObject p = params.get(i);
            calls = calls.compose(v -> session.call(method, p)).map(result -> {
              assertEquals(new JsonObject(), result, method);
              return null;
            });
          }
          return calls.map(v -> {
            assertTrue(session.violations().isEmpty(), () -> session.violations().toString());
            return null;
          });
        }))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void progressGoesToTheRequestAndLogsOnlyWhenAskedFor(VertxTestContext test) {
    JsonObject meta = StatelessTestClient.meta(new JsonObject()).put("progressToken", "p-1");
    client.request("tools/call", call("chatty", null)).meta(meta.copy()).send()
        .map(x -> {
          x.complete();
          assertEquals(List.of("notifications/progress", "notifications/progress"), methods(x.notifications()));
          assertEquals("p-1", x.notifications().get(0).getJsonObject("params").getString("progressToken"));
          return null;
        })
        .compose(v -> client.request("tools/call", call("chatty", null))
            .meta(meta.copy().put("io.modelcontextprotocol/logLevel", "warning")).send())
        .map(x -> {
          assertEquals(List.of("notifications/progress", "notifications/message", "notifications/progress"),
              methods(x.notifications()));
          assertEquals("warning line", x.notifications().get(1).getJsonObject("params").getString("data"));
          return null;
        })
        .compose(v -> client.request("tools/call", call("chatty", null))
            .meta(StatelessTestClient.meta(new JsonObject()).put("io.modelcontextprotocol/logLevel", "debug")).send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          // no progress token: no progress; debug: both logs
          assertEquals(List.of("notifications/message", "notifications/message"), methods(x.notifications()));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aMissingClientCapabilityIsRefusedWithTheCapabilityNamed(VertxTestContext test) {
    client.request("tools/call", call("needs_sampling", null)).capabilities(new JsonObject()
            .put("elicitation", new JsonObject())).send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          JsonObject error = x.assertError(-32021);
          assertEquals(new JsonObject().put("sampling", new JsonObject()),
              error.getJsonObject("data").getJsonObject("requiredCapabilities"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aStreamThatClosesCancelsTheRequest(Vertx vertx, VertxTestContext test) {
    List<String> reasons = new ArrayList<>();
    McpServer slow = McpServer.create(vertx).tool(io.mcpvertx.server.tools.Tool.builder("slow").build(),
        (args, ctx) -> {
          io.vertx.core.Promise<io.mcpvertx.server.tools.ToolResult> never = io.vertx.core.Promise.promise();
          ctx.onCancel(reason -> {
            reasons.add(reason);
            never.fail("cancelled");
          });
          return never.future();
        });
    io.vertx.core.Context context = vertx.getOrCreateContext();
    context.runOnContext(v -> {
      io.mcpvertx.jsonrpc.JsonRpcRequest request = new io.mcpvertx.jsonrpc.JsonRpcRequest(
          io.mcpvertx.jsonrpc.JsonRpcId.of(1), "tools/call",
          call("slow", null).put("_meta", StatelessTestClient.meta(new JsonObject())));
      List<Object> sent = new ArrayList<>();
      var served = slow.stateless().serve(request, null, sent::add);
      served.cancel("client went away");
      served.response().onComplete(test.succeeding(response -> test.verify(() -> {
        assertEquals(List.of("client went away"), reasons);
        assertTrue(sent.isEmpty());
        assertFalse(response instanceof io.mcpvertx.jsonrpc.JsonRpcResponse, "a cancelled call has no result");
        test.completeNow();
      })));
    });
  }

  @Test
  void theSchemaChecksOfTheseTestsAreNotVacuous() {
    io.mcpvertx.testing.SpecSchemas.assumeAvailable();
    // What a 2025 server would send: no resultType, no caching hints. The 2026-07-28 schema refuses it.
    JsonObject legacyList = new JsonObject().put("tools", new JsonArray());
    assertFalse(io.mcpvertx.testing.SpecSchemas.violations(VERSION, "ListToolsResult", legacyList).isEmpty());
    assertFalse(io.mcpvertx.testing.SpecSchemas.violations(VERSION, "CallToolResult",
        new JsonObject().put("content", new JsonArray())).isEmpty());
    assertFalse(io.mcpvertx.testing.SpecSchemas.violations(VERSION, "UnsupportedProtocolVersionError",
        new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("error", new JsonObject().put("code", -32022)
            .put("message", "x"))).isEmpty(), "data.supported and data.requested are required");
  }

  private static List<String> names(JsonArray tools) {
    return tools.stream().map(t -> ((JsonObject) t).getString("name")).toList();
  }

  private static List<String> methods(List<JsonObject> notifications) {
    return notifications.stream().map(n -> n.getString("method")).toList();
  }
}
