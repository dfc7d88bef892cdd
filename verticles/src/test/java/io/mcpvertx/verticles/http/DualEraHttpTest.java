package io.mcpvertx.verticles.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.ServerInfo;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.SpecSchemas;
import io.mcpvertx.testing.StatelessTestClient;
import io.mcpvertx.testing.http.HttpReply;
import io.mcpvertx.testing.http.StreamableHttp;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One endpoint, both generations: a 2025-11-25 session client and a 2026-07-28 stateless client interleave their
 * requests against the same {@link McpHttpServer}, each served by its own rules, over real HTTP.
 */
@ExtendWith(VertxExtension.class)
class DualEraHttpTest {

  private static final String MODERN = "2026-07-28";
  private static final String LEGACY = "2025-11-25";

  private McpServer server;
  private McpHttpServer http;
  private StreamableHttp streamable;
  private StatelessTestClient modern;
  private long nextId = 1;

  @BeforeEach
  void start(Vertx vertx, VertxTestContext test) {
    server = McpServer.create(vertx, new McpServerOptions().setServerInfo(ServerInfo.of("dual", "1.0.0")));
    server.tool(Tool.builder("echo").description("Echoes text").inputSchema(new JsonObject(
            "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}")).build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text(args.getString("text", ""))));
    server.tool(Tool.builder("ask_name").description("Asks for a name").build(),
        (args, ctx) -> ctx.elicit("user_name", ElicitRequest.form("Name?", new JsonObject("""
                {"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}
                """)))
            .map(answer -> ToolResult.text("Hello, " + answer.content().getString("name"))));
    server.tool(Tool.builder("steps").description("Reports progress").build(), (args, ctx) -> {
      ctx.progress(1, 2.0, "one");
      ctx.progress(2, 2.0, "two");
      return Future.succeededFuture(ToolResult.text("stepped"));
    });
    http = McpHttpServer.create(vertx, server, new McpHttpServerOptions().setPort(0));
    // one verticle: listen(n > 1) cannot share port 0 (each extra instance would bind a port of its own)
    http.listen(1).onComplete(test.succeeding(v -> {
      streamable = StreamableHttp.http1(vertx, http.actualPort());
      modern = StatelessTestClient.over(vertx, streamable.stateless());
      test.completeNow();
    }));
  }

  @AfterEach
  void stop(VertxTestContext test) {
    streamable.close().compose(v -> http.close()).onComplete(test.succeedingThenComplete());
  }

  /** What came back: status, headers and the JSON-RPC messages of the body (one for JSON, each event for SSE). */
  record Reply(int status, MultiMap headers, List<JsonObject> messages) {

    JsonObject last() {
      assertFalse(messages.isEmpty(), "no message in the reply");
      return messages.get(messages.size() - 1);
    }

    JsonObject result() {
      JsonObject last = last();
      assertTrue(last.containsKey("result"), last::encode);
      return last.getJsonObject("result");
    }

    JsonObject error(int code, int httpStatus) {
      JsonObject error = last().getJsonObject("error");
      assertNotNull(error, () -> last().encode());
      assertEquals(code, error.getInteger("code"), error::encode);
      assertEquals(httpStatus, status, error::encode);
      return error;
    }
  }

  /** A POST with exactly these headers besides Content-Type and Accept (the raw side of the HTTP transport). */
  private Future<Reply> post(Map<String, String> headers, JsonObject body) {
    MultiMap all = StreamableHttp.postHeaders();
    headers.forEach(all::add);
    return streamable.post(all, body).map(reply -> new Reply(reply.status(), reply.headers(), reply.messages()));
  }

  private static JsonObject meta() {
    return new JsonObject()
        .put("io.modelcontextprotocol/protocolVersion", MODERN)
        .put("io.modelcontextprotocol/clientInfo", new JsonObject().put("name", "modern").put("version", "1"))
        .put("io.modelcontextprotocol/clientCapabilities", new JsonObject().put("elicitation", new JsonObject()));
  }

  private JsonObject request(String method, JsonObject params) {
    JsonObject message = new JsonObject().put("jsonrpc", "2.0").put("id", nextId++).put("method", method);
    return params == null ? message : message.put("params", params);
  }

  /** A stateless request with the standard headers derived from its body. */
  private Future<StatelessTestClient.Exchange> modern(String method, JsonObject params) {
    return modern.request(method, params).meta(meta()).send();
  }

  /** A session client after the handshake, over HTTP. */
  private Future<McpTestClient> openSession(Vertx vertx) {
    return streamable.sessionClient(vertx).connect(LEGACY, new JsonObject()).map(session -> {
      assertNotNull(session.sessionId());
      return session;
    });
  }

  private static void assertValid(String version, String type, JsonObject instance) {
    List<String> violations = SpecSchemas.violations(version, type, instance);
    assertTrue(violations.isEmpty(), () -> type + ": " + violations + " in " + instance.encode());
  }

  private static String text(JsonObject result) {
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }

  @Test
  void aSessionAndAStatelessClientInterleave(Vertx vertx, VertxTestContext test) {
    McpTestClient[] opened = {null};
    openSession(vertx).onSuccess(session -> opened[0] = session)
        .compose(session -> modern("tools/call", new JsonObject().put("name", "ask_name"))
        .compose(asked -> {
          // stateless: input_required, as JSON, no session minted
          assertEquals(200, asked.status());
          assertNull(asked.headers().get("Mcp-Session-Id"));
          JsonObject result = asked.result();
          assertEquals("input_required", result.getString("resultType"));
          assertValid(MODERN, "InputRequiredResult", result);
          return session.call("tools/list", null).map(tools -> {
            // the session answers in its own revision: no resultType, no caching hints
            assertValid(LEGACY, "ListToolsResult", tools);
            assertFalse(tools.containsKey("resultType") || tools.containsKey("ttlMs"), tools::encode);
            return result;
          });
        })
        .compose(asked -> modern("tools/call", new JsonObject().put("name", "ask_name")
            .put("requestState", asked.getString("requestState"))
            .put("inputResponses", new JsonObject().put("user_name", new JsonObject().put("action", "accept")
                .put("content", new JsonObject().put("name", "Ada"))))))
        .compose(done -> {
          JsonObject result = done.result();
          assertEquals("complete", result.getString("resultType"));
          assertEquals("Hello, Ada", text(result));
          assertValid(MODERN, "CallToolResult", result);
          return session.toolsCall("echo", new JsonObject().put("text", "still here"));
        })
        .compose(echo -> {
          assertEquals("still here", text(echo));
          assertValid(LEGACY, "CallToolResult", echo);
          return modern("server/discover", null);
        })
        .compose(discover -> {
          JsonObject result = discover.result();
          assertValid(MODERN, "DiscoverResult", result);
          assertTrue(result.getJsonArray("supportedVersions").contains(MODERN));
          return session.call("ping", null);
        })
        .compose(pong -> {
          assertEquals(new JsonObject(), pong);
          return modern("ping", null);
        })
        .compose(ping -> {
          ping.assertError(-32601, 404);
          return post(Map.of("Mcp-Session-Id", session.sessionId(), "MCP-Protocol-Version", LEGACY),
              new JsonObject().put("jsonrpc", "2.0").put("id", 99).put("method", "tools/list"));
        }))
        .onComplete(test.succeeding(list -> test.verify(() -> {
          assertEquals(200, list.status());
          assertTrue(list.result().containsKey("tools"));
          assertEquals(1, http.sessionCount(), "stateless requests make no sessions");
          opened[0].assertNoViolations();
          modern.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void routingHeadersAreCheckedOverHttpWithCaseInsensitiveNames(VertxTestContext test) {
    JsonObject list = request("tools/list", new JsonObject().put("_meta", meta()));
    post(Map.of("mcp-protocol-version", MODERN, "mcp-method", "tools/list"), list)
        .compose(lower -> {
          assertEquals("complete", lower.result().getString("resultType"));
          return post(Map.of("MCP-PROTOCOL-VERSION", MODERN, "MCP-METHOD", "tools/list"), list);
        })
        .compose(upper -> {
          assertEquals("complete", upper.result().getString("resultType"));
          return post(Map.of("MCP-Protocol-Version", MODERN, "Mcp-Method", "TOOLS/LIST"), list);
        })
        .compose(caseMismatch -> {
          assertValid(MODERN, "HeaderMismatchError", caseMismatch.last());
          caseMismatch.error(-32020, 400);
          JsonObject call = request("tools/call", new JsonObject().put("name", "echo")
              .put("arguments", new JsonObject().put("text", "x")).put("_meta", meta()));
          return post(Map.of("MCP-Protocol-Version", MODERN, "Mcp-Method", "tools/call", "Mcp-Name",
              "=?base64?ZWNobw==?="), call);
        })
        .compose(base64 -> {
          assertEquals("x", text(base64.result()));
          JsonObject unsupported = request("server/discover", new JsonObject().put("_meta", meta()
              .put("io.modelcontextprotocol/protocolVersion", "2099-01-01")));
          return post(Map.of("MCP-Protocol-Version", "2099-01-01", "Mcp-Method", "server/discover"), unsupported);
        })
        .onComplete(test.succeeding(unsupported -> test.verify(() -> {
          unsupported.error(-32022, 400);
          assertValid(MODERN, "UnsupportedProtocolVersionError", unsupported.last());
          test.completeNow();
        })));
  }

  @Test
  void aRefusedRequestIs400AndAMethodsOwnErrorIs200(VertxTestContext test) {
    // -32602 both times: once refusing _meta before anything is served, once as the answer of tools/call.
    JsonObject noCapabilities = request("tools/list", new JsonObject().put("_meta", meta()
        .put("io.modelcontextprotocol/clientCapabilities", "none")));
    post(Map.of("MCP-Protocol-Version", MODERN, "Mcp-Method", "tools/list"), noCapabilities)
        .compose(refused -> {
          refused.error(-32602, 400);
          return modern("tools/call", new JsonObject().put("name", "no_such_tool"));
        })
        .onComplete(test.succeeding(answered -> test.verify(() -> {
          answered.assertError(-32602, 200);
          test.completeNow();
        })));
  }

  @Test
  void progressStreamsBeforeTheResultAndGetAndDeleteAreNotForStatelessClients(VertxTestContext test) {
    modern("tools/call", new JsonObject().put("name", "steps").put("_meta", new JsonObject()))
        .compose(plain -> {
          // without a progress token: a plain JSON answer
          assertTrue(plain.headers().get("Content-Type").startsWith("application/json"));
          JsonObject p = new JsonObject().put("name", "steps");
          JsonObject body = request("tools/call", p.put("_meta", meta().put("progressToken", "t1")));
          return post(Map.of("MCP-Protocol-Version", MODERN, "Mcp-Method", "tools/call", "Mcp-Name", "steps"),
              body);
        })
        .compose(streamed -> {
          assertTrue(streamed.headers().get("Content-Type").startsWith("text/event-stream"));
          assertEquals(List.of("notifications/progress", "notifications/progress"),
              streamed.messages().subList(0, 2).stream().map(m -> m.getString("method")).toList());
          assertEquals("stepped", text(streamed.result()));
          return streamable.send(HttpMethod.GET, MultiMap.caseInsensitiveMultiMap().add("Accept", "text/event-stream")
              .add("MCP-Protocol-Version", MODERN), null).map(HttpReply::status);
        })
        .onComplete(test.succeeding(status -> test.verify(() -> {
          assertEquals(405, status);
          test.completeNow();
        })));
  }

  @Test
  void aModernRequestIsStatelessEvenWithASessionHeader(Vertx vertx, VertxTestContext test) {
    openSession(vertx).compose(session -> {
      JsonObject body = request("tools/list", new JsonObject().put("_meta", meta()));
      return post(Map.of("Mcp-Session-Id", session.sessionId(), "MCP-Protocol-Version", MODERN, "Mcp-Method", "tools/list"),
          body).compose(withLive -> {
            assertEquals("complete", withLive.result().getString("resultType"));
            return post(Map.of("Mcp-Session-Id", "no-such-session", "MCP-Protocol-Version", MODERN,
                "Mcp-Method", "tools/list"), request("tools/list", new JsonObject().put("_meta", meta())));
          });
    }).onComplete(test.succeeding(withUnknown -> test.verify(() -> {
      assertEquals(200, withUnknown.status());
      assertEquals("complete", withUnknown.result().getString("resultType"));
      test.completeNow();
    })));
  }

  @Test
  void listenStreamsTheChangesItAskedFor(Vertx vertx, VertxTestContext test) {
    // The HTTP transport opens a listen only on a 200 with an event stream, and fails otherwise.
    List<JsonObject> frames = new ArrayList<>();
    modern.request("subscriptions/listen", new JsonObject()
            .put("notifications", new JsonObject().put("toolsListChanged", true))).meta(meta()).listen()
        .compose(listening -> listening.frame(0).compose(ack -> {
          server.tool(Tool.builder("late").description("added later").build(),
              (args, ctx) -> Future.succeededFuture(ToolResult.text("late")));
          return listening.frame(1);
        }).compose(change -> listening.frames()).onSuccess(frames::addAll).eventually(() -> {
          listening.close();
          return Future.succeededFuture();
        }))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          assertEquals("notifications/subscriptions/acknowledged", frames.get(0).getString("method"));
          assertEquals("notifications/tools/list_changed", frames.get(1).getString("method"));
          Object id = frames.get(0).getJsonObject("params").getJsonObject("_meta")
              .getValue("io.modelcontextprotocol/subscriptionId");
          assertEquals(id, frames.get(1).getJsonObject("params").getJsonObject("_meta")
              .getValue("io.modelcontextprotocol/subscriptionId"));
          for (JsonObject frame : frames) {
            assertValid(MODERN, "JSONRPCNotification", frame);
          }
          assertValid(MODERN, "SubscriptionsAcknowledgedNotification", frames.get(0));
          test.completeNow();
        })));
  }
}
