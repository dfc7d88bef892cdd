package io.mcpvertx.verticles.http;

import static io.mcpvertx.verticles.http.HttpChecks.assertAccepted;
import static io.mcpvertx.verticles.http.HttpChecks.assertRejected;
import static io.mcpvertx.verticles.http.HttpChecks.assertSchemaValid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.testing.http.HttpReply;
import io.mcpvertx.testing.http.SseStream;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.testing.http.StreamableHttpSession;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Requests the endpoint refuses, each with the status the Streamable HTTP transport asks for. */
@ExtendWith(VertxExtension.class)
class HttpRejectionsTest {

  private static final String V11 = "2025-11-25";

  @ParameterizedTest
  @NullSource
  @ValueSource(strings = {"application/json", "text/event-stream", "text/html"})
  void rejectsPostWhoseAcceptDoesNotListBothTypesWith406(String accept, Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> {
          MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/json");
          if (accept != null) {
            headers.add("Accept", accept);
          }
          return server.client().post(headers, StreamableHttp.initializeRequest(V11)).map(reply -> {
            test.verify(() -> {
              assertRejected(reply, 406);
              assertEquals(0, server.http.sessionCount());
            });
            return reply;
          });
        })
        .onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(strings = {"application/json", "text/html"})
  void rejectsGetWhoseAcceptLacksEventStreamWith406(String accept, Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11))
        .compose(session -> {
          MultiMap headers = session.getHeaders().remove("Accept");
          if (accept != null) {
            headers.add("Accept", accept);
          }
          return session.client().send(HttpMethod.GET, headers, null);
        })
        .map(reply -> {
          test.verify(() -> assertRejected(reply, 406));
          return reply;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(strings = {"text/plain", "application/x-www-form-urlencoded", "application/jsonp"})
  void rejectsPostWhoseContentTypeIsNotJsonWith415(String contentType, Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> {
          MultiMap headers = StreamableHttp.postHeaders().remove("Content-Type");
          if (contentType != null) {
            headers.add("Content-Type", contentType);
          }
          return server.client().post(headers, StreamableHttp.initializeRequest(V11));
        })
        .map(reply -> {
          test.verify(() -> assertRejected(reply, 415));
          return reply;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void acceptsJsonContentTypeWithCharset(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().post(StreamableHttp.postHeaders()
            .set("Content-Type", "Application/JSON; charset=utf-8"), StreamableHttp.initializeRequest(V11)))
        .map(reply -> {
          test.verify(() -> assertEquals(200, reply.status(), reply::toString));
          return reply;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsBodyOverMaxBodyBytesWith413(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx, new McpHttpServerOptions().setMaxBodyBytes(1024))
        .compose(server -> server.client().initialize(V11).compose(session -> session.post(
            session.toolCall("echo", new JsonObject().put("text", "y".repeat(2048)), null))))
        .map(reply -> {
          test.verify(() -> assertRejected(reply, 413));
          return reply;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsRequestsWithoutSessionIdWith400(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11).compose(session -> {
          StreamableHttp client = server.client();
          Future<HttpReply> post = client.post(session.postHeaders().remove("Mcp-Session-Id"),
              session.request("tools/list", null));
          Future<HttpReply> get = client.send(HttpMethod.GET, session.getHeaders().remove("Mcp-Session-Id"), null);
          Future<HttpReply> delete = client.send(HttpMethod.DELETE, MultiMap.caseInsensitiveMultiMap(), null);
          return Future.all(post, get, delete).map(all -> {
            test.verify(() -> {
              assertRejected(post.result(), 400);
              assertRejected(get.result(), 400);
              assertRejected(delete.result(), 400);
              assertEquals(1, server.http.sessionCount());
            });
            return all;
          });
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"1999-01-01", "2025-11-25x", "draft", "2026-07-28"})
  void rejectsUnsupportedProtocolVersionHeaderWith400(String header, Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11))
        .compose(session -> session.post(session.request("ping", null),
            session.postHeaders().set("MCP-Protocol-Version", header)))
        .map(reply -> {
          test.verify(() -> assertRejected(reply, 400));
          return reply;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"jsonrpc\":\"2.0\",\"id\":1,", "not json", ""})
  void answersMalformedJsonWith400AndParseError(String body, Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11).compose(session ->
            server.client().send(HttpMethod.POST, session.postHeaders(), Buffer.buffer(body))))
        .map(reply -> {
          test.verify(() ->
              assertEquals(JsonRpcErrorCodes.PARSE_ERROR, assertRejected(reply, 400).getInteger("code")));
          return reply;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsInitializeThatCarriesASessionIdWith400(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11).compose(session ->
            session.post(StreamableHttp.initializeRequest(V11)).map(reply -> {
              test.verify(() -> {
                assertRejected(reply, 400);
                assertNull(reply.header("Mcp-Session-Id"));
                assertEquals(1, server.http.sessionCount());
              });
              return reply;
            })))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsBatchOn2025_06_18SessionWith400(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize("2025-06-18"))
        .compose(session -> session.post(batchOf(session)))
        .map(reply -> {
          test.verify(() ->
              assertEquals(JsonRpcErrorCodes.INVALID_REQUEST, assertRejected(reply, 400).getInteger("code")));
          return reply;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersBatchOn2025_03_26SessionWithAnArray(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize("2025-03-26"))
        .compose(session -> session.post(batchOf(session)))
        .map(reply -> {
          test.verify(() -> {
            assertEquals(200, reply.status(), reply::toString);
            JsonArray responses = reply.contentType().equals("application/json")
                ? reply.body().toJsonArray() : new JsonArray(reply.events().get(0).data());
            assertEquals(2, responses.size(), reply::toString);
            responses.forEach(r -> assertSchemaValid("2025-03-26", (JsonObject) r, "ping"));
          });
          return reply;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersUnknownSessionWith404(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11).compose(session -> {
          StreamableHttpSession stranger = new StreamableHttpSession(server.client(), "no-such-session", V11, null);
          return Future.all(stranger.post(stranger.request("ping", null)), stranger.listen()
              .compose(SseStream::reply), stranger.delete());
        }))
        .map(all -> {
          test.verify(() -> {
            for (int i = 0; i < 3; i++) {
              assertRejected(all.resultAt(i), 404);
            }
          });
          return all;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsOtherMethodsWith405(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11).compose(session ->
            server.client().send(HttpMethod.PUT, session.postHeaders(), session.request("ping", null).toBuffer())))
        .map(reply -> {
          test.verify(() -> {
            assertRejected(reply, 405);
            assertNotNull(reply.header("Allow"));
            assertTrue(reply.header("Allow").contains("POST"), reply::toString);
          });
          return reply;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void acceptsNotificationsAndClientResponsesWith202(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11))
        .compose(session -> Future.all(
            session.post(StreamableHttp.notification("notifications/roots/list_changed")),
            session.post(new JsonObject().put("jsonrpc", "2.0").put("id", "s-1").put("result", new JsonObject())),
            session.post(new JsonObject().put("jsonrpc", "2.0").put("id", "s-2")
                .put("error", new JsonObject().put("code", -1).put("message", "no")))))
        .map(all -> {
          test.verify(() -> {
            for (int i = 0; i < 3; i++) {
              assertAccepted(all.resultAt(i));
            }
          });
          return all;
        })
        .onComplete(test.succeedingThenComplete());
  }

  private static Buffer batchOf(StreamableHttpSession session) {
    return new JsonArray().add(session.request("ping", null)).add(session.request("ping", null)).toBuffer();
  }
}
