package io.mcpvertx.verticles.http;

import static io.mcpvertx.verticles.http.HttpChecks.assertSchemaValid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.testing.http.HttpReply;
import io.mcpvertx.testing.http.SseParser;
import io.mcpvertx.testing.http.SseStream;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.testing.http.StreamableHttpSession;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** How a POST carrying a request is answered in each {@link ResponseMode}, and over HTTP/2. */
@ExtendWith(VertxExtension.class)
class HttpResponseModesTest {

  private static final String V11 = "2025-11-25";

  private static JsonObject count(int n) {
    return new JsonObject().put("count", n);
  }

  /**
   * The shape of a streamed tools/call on a 2025-11-25 session: a priming event first, then the progress
   * notifications, then the response, each event with its own id, all schema-valid.
   */
  private static void assertStreamedProgressCall(List<SseParser.Event> events, Object token, int progress) {
    assertTrue(events.get(0).isPriming(), () -> "no priming event first: " + events);
    Set<String> ids = new HashSet<>();
    for (SseParser.Event event : events) {
      assertNotNull(event.id(), () -> "an event without id: " + events);
      assertTrue(ids.add(event.id()), () -> "a repeated event id: " + events);
    }
    List<SseParser.Event> messages = events.stream().filter(SseParser.Event::hasMessage).toList();
    assertEquals(progress + 1, messages.size(), events::toString);
    for (int i = 0; i < progress; i++) {
      JsonObject notification = messages.get(i).message();
      assertEquals("notifications/progress", notification.getString("method"));
      assertEquals(token, notification.getJsonObject("params").getValue("progressToken"));
      assertEquals(i + 1, notification.getJsonObject("params").getInteger("progress"));
      assertSchemaValid(V11, notification, null);
    }
    JsonObject response = messages.get(progress).message();
    assertEquals("done", response.getJsonObject("result").getJsonArray("content").getJsonObject(0)
        .getString("text"));
    assertSchemaValid(V11, response, "tools/call");
  }

  @Test
  void answersAPlainToolCallWithJson(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11))
        .compose(session -> session.post(session.toolCall("echo", new JsonObject().put("text", "hi"), null)))
        .map(reply -> {
          test.verify(() -> {
            assertEquals(200, reply.status());
            assertEquals("application/json", reply.contentType());
            JsonObject response = reply.json();
            assertEquals("hi", response.getJsonObject("result").getJsonArray("content").getJsonObject(0)
                .getString("text"));
            assertSchemaValid(V11, response, "tools/call");
          });
          return reply;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void switchesToSseWhenAToolSendsProgressBeforeItsResult(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11))
        .compose(session -> session.post(session.toolCall("progress", count(3), "tok-1")))
        .map(reply -> {
          test.verify(() -> {
            assertEquals(200, reply.status());
            assertTrue(reply.isSse(), reply::toString);
            assertEquals("no", reply.header("X-Accel-Buffering"));
            assertStreamedProgressCall(reply.events(), "tok-1", 3);
          });
          return reply;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void echoesANumericProgressTokenAsANumber(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11))
        .compose(session -> session.post(session.toolCall("progress", count(2), 1)))
        .map(reply -> {
          test.verify(() -> assertStreamedProgressCall(reply.events(), 1, 2));
          return reply;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersEveryRequestWithSseInSseMode(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx, new McpHttpServerOptions().setResponseMode(ResponseMode.SSE))
        .compose(server -> server.client().initialize(V11))
        .compose(session -> {
          JsonObject ping = session.request("ping", null);
          return session.post(ping).map(reply -> {
            test.verify(() -> {
              assertTrue(reply.isSse(), reply::toString);
              List<SseParser.Event> events = reply.events();
              assertEquals(2, events.size(), events::toString);
              assertTrue(events.get(0).isPriming(), events::toString);
              JsonObject pong = events.get(1).message();
              assertTrue(SseStream.isResponseTo(pong, ping.getValue("id")));
              assertEquals(new JsonObject(), pong.getJsonObject("result"));
              assertSchemaValid(V11, pong, "ping");
              // Answered at once, the whole stream went out as one response of known length, not chunked.
              assertEquals(null, reply.header("Transfer-Encoding"), reply::toString);
              assertEquals(String.valueOf(reply.body().length()), reply.header("Content-Length"), reply::toString);
            });
            return reply;
          });
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void opensTheStreamOfARequestStillRunningInSseModeWithItsPrimingEvent(Vertx vertx, VertxTestContext test) {
    // Nothing is sent while the handler waits: the head and the priming event go out once the session is done
    // with its turn, so the client holds an id to resume from before any answer exists.
    HttpTestServer.start(vertx, new McpHttpServerOptions().setResponseMode(ResponseMode.SSE))
        .compose(server -> server.client().initialize(V11).compose(session -> {
          JsonObject call = session.toolCall("waits", new JsonObject(), null);
          return session.stream(call).compose(post -> post.await(SseParser.Event::isPriming).compose(primed -> {
            test.verify(() -> assertFalse(post.events().stream().anyMatch(SseParser.Event::hasMessage),
                post::toString));
            server.tools.gate.complete();
            return post.awaitResponse(call.getValue("id")).map(answer -> {
              test.verify(() -> assertEquals("waited", answer.message().getJsonObject("result")
                  .getJsonArray("content").getJsonObject(0).getString("text")));
              return answer;
            });
          }));
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void servesConcurrentPostStreamsOfOneSession(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx, new McpHttpServerOptions().setResponseMode(ResponseMode.SSE))
        .compose(server -> server.client().initialize(V11))
        .compose(session -> Future.all(List.of(session.post(session.request("tools/list", new JsonObject())),
            session.post(session.request("tools/list", new JsonObject())),
            session.post(session.request("tools/list", new JsonObject())))))
        .map(all -> {
          test.verify(() -> {
            Set<String> eventIds = new HashSet<>();
            for (HttpReply reply : all.<HttpReply>list()) {
              assertEquals(200, reply.status());
              assertTrue(reply.isSse());
              reply.events().forEach(e -> assertTrue(eventIds.add(e.id()), "event ids repeat across streams"));
              assertSchemaValid(V11, reply.messages().get(0), "tools/list");
            }
          });
          return all;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void putsNotificationsOnTheGetStreamInJsonMode(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx, new McpHttpServerOptions().setResponseMode(ResponseMode.JSON))
        .compose(server -> server.client().initialize(V11))
        .compose(session -> session.listen().compose(get -> get.await(SseParser.Event::isPriming)
            .compose(primed -> session.post(session.toolCall("progress", count(3), "json-mode")))
            .compose(reply -> {
              test.verify(() -> {
                assertEquals("application/json", reply.contentType(), reply::toString);
                assertSchemaValid(V11, reply.json(), "tools/call");
              });
              return get.await(e -> e.hasMessage() && e.message().getJsonObject("params").getInteger("progress") == 3);
            })
            .map(last -> {
              test.verify(() -> {
                List<JsonObject> notifications = get.messages();
                assertEquals(3, notifications.size(), notifications::toString);
                for (JsonObject n : notifications) {
                  assertEquals("json-mode", n.getJsonObject("params").getString("progressToken"));
                  assertSchemaValid(V11, n, null);
                }
              });
              return last;
            })))
        .onComplete(test.succeedingThenComplete());
  }

  /** Answers the elicitation a stream carries, and checks it on the way. */
  private static Future<HttpReply> answerElicitation(StreamableHttpSession session, SseParser.Event event) {
    JsonObject request = event.message();
    assertEquals("elicitation/create", request.getString("method"));
    assertSchemaValid(V11, request, null);
    return session.post(new JsonObject().put("jsonrpc", "2.0").put("id", request.getValue("id"))
        .put("result", new JsonObject().put("action", "accept").put("content", new JsonObject().put("name", "Ada"))));
  }

  private static boolean isElicitation(SseParser.Event event) {
    return event.hasMessage() && "elicitation/create".equals(event.message().getString("method"));
  }

  @Test
  void carriesAServerRequestOnThePostStreamAndTakesTheAnswerAsAPost(Vertx vertx, VertxTestContext test) {
    JsonObject elicitation = new JsonObject().put("elicitation", new JsonObject());
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11, elicitation))
        .compose(session -> {
          JsonObject call = session.toolCall("ask", new JsonObject(), null);
          return session.stream(call).compose(post -> post.await(HttpResponseModesTest::isElicitation)
              .compose(asked -> answerElicitation(session, asked))
              .compose(ack -> {
                test.verify(() -> assertEquals(202, ack.status(), ack::toString));
                return post.awaitResponse(call.getValue("id"));
              })
              .map(answered -> {
                test.verify(() -> {
                  assertEquals("hello Ada", answered.message().getJsonObject("result").getJsonArray("content")
                      .getJsonObject(0).getString("text"));
                  assertSchemaValid(V11, answered.message(), "tools/call");
                });
                return answered;
              }));
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void carriesAServerRequestOnTheGetStreamInJsonMode(Vertx vertx, VertxTestContext test) {
    JsonObject elicitation = new JsonObject().put("elicitation", new JsonObject());
    HttpTestServer.start(vertx, new McpHttpServerOptions().setResponseMode(ResponseMode.JSON))
        .compose(server -> server.client().initialize(V11, elicitation))
        .compose(session -> session.listen().compose(get -> get.await(SseParser.Event::isPriming).compose(primed -> {
          Future<HttpReply> call = session.post(session.toolCall("ask", new JsonObject(), null));
          return get.await(HttpResponseModesTest::isElicitation)
              .compose(asked -> answerElicitation(session, asked))
              .compose(ack -> call);
        })))
        .map(reply -> {
          test.verify(() -> {
            assertEquals("application/json", reply.contentType(), reply::toString);
            assertEquals("hello Ada", reply.json().getJsonObject("result").getJsonArray("content")
                .getJsonObject(0).getString("text"));
          });
          return reply;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void sendsNoPrimingEventToA2025_06_18Session(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize("2025-06-18"))
        .compose(session -> session.post(session.toolCall("progress", count(2), "old")))
        .map(reply -> {
          test.verify(() -> {
            assertTrue(reply.isSse(), reply::toString);
            List<SseParser.Event> events = reply.events();
            assertEquals(3, events.size(), events::toString);
            events.forEach(e -> assertTrue(e.hasMessage(), () -> "an event without a message: " + events));
            events.forEach(e -> assertSchemaValid("2025-06-18", e.message(), "tools/call"));
          });
          return reply;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void servesASessionOverH2cWithPriorKnowledge(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> {
      StreamableHttp h2 = StreamableHttp.h2c(vertx, server.port());
      return h2.initialize(V11).compose(session -> session.listen().compose(get -> {
        test.verify(() -> assertEquals(HttpVersion.HTTP_2, get.version()));
        return get.await(SseParser.Event::isPriming)
            .compose(primed -> session.post(session.toolCall("progress", count(2), "h2")))
            .compose(reply -> {
              test.verify(() -> {
                assertTrue(reply.isSse(), reply::toString);
                assertStreamedProgressCall(reply.events(), "h2", 2);
                assertFalse(get.messages().stream().anyMatch(m -> m.containsKey("id")),
                    "the GET stream carried a response");
              });
              return session.delete();
            })
            .compose(deleted -> {
              test.verify(() -> assertEquals(200, deleted.status()));
              return get.over();
            })
            .map(v -> {
              test.verify(() -> assertEquals(0, server.http.sessionCount()));
              return v;
            });
      }));
    }).onComplete(test.succeedingThenComplete());
  }
}
