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
import io.mcpvertx.testing.SpecSchemas;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
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
  private HttpClient client;
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
    client = vertx.createHttpClient(new HttpClientOptions().setDefaultHost("127.0.0.1"));
    // one verticle: listen(n > 1) cannot share port 0 (each extra instance would bind a port of its own)
    http.listen(1).onComplete(test.succeedingThenComplete());
  }

  @AfterEach
  void stop(VertxTestContext test) {
    client.close().compose(v -> http.close()).onComplete(test.succeedingThenComplete());
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

  private Future<Reply> post(Map<String, String> headers, JsonObject body) {
    RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setPort(http.actualPort())
        .setURI("/mcp").putHeader("Content-Type", "application/json")
        .putHeader("Accept", "application/json, text/event-stream");
    headers.forEach(options::putHeader);
    return client.request(options)
        .compose(request -> request.send(body.toBuffer()))
        .compose(response -> response.body().map(buffer -> reply(response, buffer)));
  }

  private static Reply reply(HttpClientResponse response, Buffer body) {
    List<JsonObject> messages = new ArrayList<>();
    String type = response.getHeader("Content-Type");
    if (type != null && type.startsWith("text/event-stream")) {
      for (String line : body.toString().split("\n")) {
        if (line.startsWith("data: ") && line.length() > 6) {
          messages.add(new JsonObject(line.substring(6)));
        }
      }
    } else if (body.length() > 0) {
      messages.add(new JsonObject(body));
    }
    return new Reply(response.statusCode(), response.headers(), messages);
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
  private Future<Reply> modern(String method, JsonObject params) {
    JsonObject p = (params == null ? new JsonObject() : params.copy()).put("_meta", meta());
    Map<String, String> headers = new java.util.LinkedHashMap<>();
    headers.put("MCP-Protocol-Version", MODERN);
    headers.put("Mcp-Method", method);
    Object name = method.equals("resources/read") ? p.getValue("uri") : p.getValue("name");
    if (name instanceof String s && (method.equals("tools/call") || method.equals("prompts/get")
        || method.equals("resources/read"))) {
      headers.put("Mcp-Name", s);
    }
    return post(headers, request(method, p));
  }

  private Future<Reply> legacy(String session, String method, JsonObject params) {
    return post(Map.of("Mcp-Session-Id", session, "MCP-Protocol-Version", LEGACY), request(method, params));
  }

  private Future<String> openSession() {
    JsonObject init = new JsonObject().put("protocolVersion", LEGACY).put("capabilities", new JsonObject())
        .put("clientInfo", new JsonObject().put("name", "legacy").put("version", "1"));
    return post(Map.of(), request("initialize", init)).compose(reply -> {
      assertEquals(200, reply.status());
      assertEquals(LEGACY, reply.result().getString("protocolVersion"));
      String session = reply.headers().get("Mcp-Session-Id");
      assertNotNull(session);
      return post(Map.of("Mcp-Session-Id", session, "MCP-Protocol-Version", LEGACY),
          new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized"))
          .map(ack -> {
            assertEquals(202, ack.status());
            return session;
          });
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
  void aSessionAndAStatelessClientInterleave(VertxTestContext test) {
    openSession().compose(session -> modern("tools/call", new JsonObject().put("name", "ask_name"))
        .compose(asked -> {
          // stateless: input_required, as JSON, no session minted
          assertEquals(200, asked.status());
          assertNull(asked.headers().get("Mcp-Session-Id"));
          JsonObject result = asked.result();
          assertEquals("input_required", result.getString("resultType"));
          assertValid(MODERN, "InputRequiredResult", result);
          return legacy(session, "tools/list", null).map(list -> {
            // the session answers in its own revision: no resultType, no caching hints
            JsonObject tools = list.result();
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
          return legacy(session, "tools/call", new JsonObject().put("name", "echo")
              .put("arguments", new JsonObject().put("text", "still here")));
        })
        .compose(echo -> {
          assertEquals("still here", text(echo.result()));
          assertValid(LEGACY, "CallToolResult", echo.result());
          return modern("server/discover", null);
        })
        .compose(discover -> {
          JsonObject result = discover.result();
          assertValid(MODERN, "DiscoverResult", result);
          assertTrue(result.getJsonArray("supportedVersions").contains(MODERN));
          return legacy(session, "ping", null);
        })
        .compose(pong -> {
          assertEquals(new JsonObject(), pong.result());
          return modern("ping", null);
        })
        .compose(ping -> {
          ping.error(-32601, 404);
          return post(Map.of("Mcp-Session-Id", session, "MCP-Protocol-Version", LEGACY),
              new JsonObject().put("jsonrpc", "2.0").put("id", 99).put("method", "tools/list"));
        }))
        .onComplete(test.succeeding(list -> test.verify(() -> {
          assertEquals(200, list.status());
          assertTrue(list.result().containsKey("tools"));
          assertEquals(1, http.sessionCount(), "stateless requests make no sessions");
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
          answered.error(-32602, 200);
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
          return client.request(new RequestOptions().setMethod(HttpMethod.GET).setPort(http.actualPort())
                  .setURI("/mcp").putHeader("Accept", "text/event-stream").putHeader("MCP-Protocol-Version", MODERN))
              .compose(r -> r.send()).map(HttpClientResponse::statusCode);
        })
        .onComplete(test.succeeding(status -> test.verify(() -> {
          assertEquals(405, status);
          test.completeNow();
        })));
  }

  @Test
  void aModernRequestIsStatelessEvenWithASessionHeader(VertxTestContext test) {
    openSession().compose(session -> {
      JsonObject body = request("tools/list", new JsonObject().put("_meta", meta()));
      return post(Map.of("Mcp-Session-Id", session, "MCP-Protocol-Version", MODERN, "Mcp-Method", "tools/list"),
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
    JsonObject body = request("subscriptions/listen", new JsonObject().put("_meta", meta())
        .put("notifications", new JsonObject().put("toolsListChanged", true)));
    List<JsonObject> frames = new ArrayList<>();
    Promise<Void> ack = Promise.promise();
    Promise<Void> change = Promise.promise();
    client.request(new RequestOptions().setMethod(HttpMethod.POST).setPort(http.actualPort()).setURI("/mcp")
            .putHeader("Content-Type", "application/json").putHeader("Accept", "application/json, text/event-stream")
            .putHeader("MCP-Protocol-Version", MODERN).putHeader("Mcp-Method", "subscriptions/listen"))
        .compose(request -> request.send(body.toBuffer()))
        .compose(response -> {
          assertEquals(200, response.statusCode());
          assertTrue(response.getHeader("Content-Type").startsWith("text/event-stream"));
          StringBuilder pending = new StringBuilder();
          response.handler(chunk -> {
            pending.append(chunk.toString());
            int end;
            while ((end = pending.indexOf("\n\n")) >= 0) {
              String event = pending.substring(0, end);
              pending.delete(0, end + 2);
              for (String line : event.split("\n")) {
                if (line.startsWith("data: ")) {
                  frames.add(new JsonObject(line.substring(6)));
                  if (frames.size() == 1) {
                    ack.tryComplete();
                  } else {
                    change.tryComplete();
                  }
                }
              }
            }
          });
          return ack.future().compose(v -> {
            server.tool(Tool.builder("late").description("added later").build(),
                (args, ctx) -> Future.succeededFuture(ToolResult.text("late")));
            return change.future();
          }).eventually(() -> response.request().connection().close());
        })
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
