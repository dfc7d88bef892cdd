package io.mcpvertx.verticles.http;

import static io.mcpvertx.verticles.http.HttpChecks.assertRejected;
import static io.mcpvertx.verticles.http.HttpChecks.assertSchemaValid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.Principal;
import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.memory.InMemoryEventStore;
import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.spi.sessions.SessionStore;
import io.mcpvertx.spi.sessions.memory.InMemorySessionStore;
import io.mcpvertx.testing.http.HttpReply;
import io.mcpvertx.testing.http.SseParser;
import io.mcpvertx.testing.http.SseStream;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.testing.http.StreamableHttpSession;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two instances sharing an event store and a session store: a session initialized on one goes on on the other with
 * the same {@code Mcp-Session-Id} (revision, log level, subscriptions), a stream produced on one resumes on the
 * other, a delete through one ends it on both, and a session is restored for its own principal only.
 */
@ExtendWith(VertxExtension.class)
class HttpSharedSessionsTest {

  private static final String V11 = "2025-11-25";
  private static final String URI = SharedInstances.RESOURCE_URI;

  private static MockAuthorizationServer authorizationServer;

  private final InMemoryEventStore events = new InMemoryEventStore(1000, 64, 600_000);
  private SessionStore sessions;
  private SharedInstances instances;

  @BeforeAll
  static void startAuthorizationServer() {
    authorizationServer = new MockAuthorizationServer();
  }

  @AfterAll
  static void stopAuthorizationServer() {
    authorizationServer.close();
  }

  @AfterEach
  void close() {
    if (instances != null) {
      instances.close();
    }
    if (sessions != null) {
      sessions.close();
    }
  }

  private Future<SharedInstances> start(Vertx vertx, McpHttpServerOptions options, SessionStore store) {
    sessions = store;
    return SharedInstances.start(vertx, options, events, store).onSuccess(started -> instances = started);
  }

  private Future<SharedInstances> start(Vertx vertx) {
    return start(vertx, new McpHttpServerOptions(), InMemorySessionStore.create(vertx));
  }

  private static boolean isProgress(SseParser.Event event, int progress) {
    return event.hasMessage() && "notifications/progress".equals(event.message().getString("method"))
        && event.message().getJsonObject("params").getInteger("progress") == progress;
  }

  private static String text(JsonObject result) {
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }

  /** What a resumption must carry after progress 1 of a three-step call: progress 2 and 3, then the answer. */
  private static void assertRestOfCall(SseStream resumed, Object token, Object requestId, String answer,
      Set<String> seenIds) {
    List<JsonObject> messages = resumed.messages();
    assertEquals(3, messages.size(), resumed.events()::toString);
    for (int i = 0; i < 2; i++) {
      JsonObject progress = messages.get(i);
      assertEquals(token, progress.getJsonObject("params").getValue("progressToken"));
      assertEquals(i + 2, progress.getJsonObject("params").getInteger("progress"));
    }
    JsonObject response = messages.get(2);
    assertTrue(SseStream.isResponseTo(response, requestId), resumed.events()::toString);
    assertEquals(answer, text(response.getJsonObject("result")));
    assertSchemaValid(V11, response, "tools/call");
    for (SseParser.Event event : resumed.events()) {
      assertTrue(event.id() != null && seenIds.add(event.id()), () -> "a missing or repeated id: " + resumed.events());
    }
  }

  @Test
  void goesOnOnAnotherInstanceWithTheSameSessionId(Vertx vertx, VertxTestContext test) {
    start(vertx).compose(two -> two.a.client().initialize(V11).compose(onA -> onA
        .call("logging/setLevel", new JsonObject().put("level", "warning"))
        .compose(r -> onA.call("resources/subscribe", new JsonObject().put("uri", URI)))
        .compose(r -> {
          StreamableHttpSession onB = two.b.session(onA);
          return onB.call("tools/list", null)
              .compose(list -> {
                test.verify(() -> assertTrue(list.getJsonArray("tools").size() >= 3, list::toString));
                return onB.call("tools/call", new JsonObject().put("name", "echo")
                    .put("arguments", new JsonObject().put("text", "on b")));
              })
              .compose(echo -> {
                test.verify(() -> assertEquals("on b", text(echo)));
                return onB.post(onB.toolCall("logs", new JsonObject(), null));
              })
              .compose(logs -> {
                test.verify(() -> {
                  // The level set through A holds on B: info is filtered out, error goes through.
                  List<JsonObject> messages = logs.messages();
                  assertEquals(2, messages.size(), logs::toString);
                  assertEquals("error", messages.get(0).getJsonObject("params").getString("level"));
                  assertEquals("logged", text(messages.get(1).getJsonObject("result")));
                  assertEquals(1, two.b.http.sessionCount());
                });
                return onB.listen();
              })
              .compose(listening -> {
                // The subscription made through A holds on B.
                Future<SseParser.Event> updated = listening.await(e -> e.hasMessage()
                    && "notifications/resources/updated".equals(e.message().getString("method")));
                two.b.mcp.resourceUpdated(URI);
                return updated.map(e -> {
                  test.verify(() -> assertEquals(URI, e.message().getJsonObject("params").getString("uri")));
                  return listening;
                });
              })
              .compose(listening -> onB.call("resources/unsubscribe", new JsonObject().put("uri", URI)))
              .compose(unsubscribed -> sessions.get(onA.id()))
              .map(record -> {
                test.verify(() -> {
                  assertEquals("OPERATING", record.state());
                  assertEquals(V11, record.protocolVersion());
                  assertEquals("warning", record.logLevel());
                  assertEquals(Set.of(), record.subscriptions(), "the unsubscription on B was stored");
                  assertEquals("http-test", record.client().getString("name"));
                });
                return record;
              });
        })))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void resumesOnAnotherInstanceAStreamDroppedWhileItsToolRan(Vertx vertx, VertxTestContext test) {
    start(vertx).compose(two -> two.a.client().initialize(V11).compose(onA -> {
      JsonObject call = onA.toolCall("gated", new JsonObject(), "moved");
      return onA.stream(call).compose(post -> post.await(e -> isProgress(e, 1)).compose(first -> post.drop()
          .compose(v -> post.over())
          .compose(v -> {
            two.a.tools.gate.complete();
            return Poll.until(vertx, () -> {
              Future<EventStore.Replay> replay = events.replayAfter(onA.id(), first.id());
              return replay.succeeded() && replay.result().complete();
            });
          })
          .compose(v -> two.b.session(onA).resume(first.id()))
          .compose(resumed -> resumed.ended().map(v -> {
            test.verify(() -> {
              assertEquals(200, resumed.status());
              assertRestOfCall(resumed, "moved", call.getValue("id"), "released",
                  new HashSet<>(Set.of(first.id())));
              assertFalse(two.a.tools.gatedCancelled.get(), "the dropped connection cancelled the call");
            });
            return v;
          }))));
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void aStoppingInstanceHandsItsStreamOverAndTheClientGetsTheRestFromAnother(Vertx vertx, VertxTestContext test) {
    start(vertx).compose(two -> two.a.client().initialize(V11).compose(onA -> {
      JsonObject call = onA.toolCall("gated", new JsonObject(), "moving");
      Future<HttpReply> inFlight = onA.post(call);
      return two.a.tools.reachedGate.future().compose(v -> {
        Future<Void> stopped = two.a.http.shutdown(30_000);
        return inFlight.compose(reply -> {
          List<SseParser.Event> events = reply.events();
          String lastId = events.stream().map(SseParser.Event::id).filter(id -> id != null)
              .reduce((first, second) -> second).orElseThrow();
          test.verify(() -> {
            assertTrue(reply.isSse(), reply::toString);
            assertTrue(events.get(0).isPriming(), events::toString);
            assertTrue(events.stream().anyMatch(e -> e.retry() >= 0), () -> "no retry field: " + events);
            assertTrue(reply.messages().stream().noneMatch(m -> SseStream.isResponseTo(m, call.getValue("id"))),
                reply::toString);
            assertFalse(stopped.isComplete(), "the shutdown waits for the request it handed over");
          });
          two.a.tools.gate.complete();
          // The request runs on at A until it is answered; then the client's GET on B gets the rest, once.
          return stopped.compose(x -> two.b.session(onA).resume(lastId)).compose(resumed -> resumed.ended()
              .map(x -> {
                test.verify(() -> {
                  List<JsonObject> all = new java.util.ArrayList<>(reply.messages());
                  all.addAll(resumed.messages());
                  assertEquals(List.of(1, 2, 3), all.stream()
                      .filter(m -> "notifications/progress".equals(m.getString("method")))
                      .map(m -> m.getJsonObject("params").getInteger("progress")).toList(), all::toString);
                  List<JsonObject> responses = all.stream()
                      .filter(m -> SseStream.isResponseTo(m, call.getValue("id"))).toList();
                  assertEquals(1, responses.size(), all::toString);
                  assertEquals("released", responses.get(0).getJsonObject("result").getJsonArray("content")
                      .getJsonObject(0).getString("text"));
                  assertFalse(two.a.tools.gatedCancelled.get(), "the handover cancelled the request");
                });
                return x;
              }));
        });
      });
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void resumesOnAnotherInstanceACompletedStream(Vertx vertx, VertxTestContext test) {
    start(vertx).compose(two -> two.a.client().initialize(V11).compose(onA -> {
      JsonObject call = onA.toolCall("progress", new JsonObject().put("count", 3), 9);
      return onA.stream(call).compose(post -> post.ended().map(v -> post))
          .compose(post -> {
            SseParser.Event first = post.events().stream().filter(e -> isProgress(e, 1)).findFirst().orElseThrow();
            Set<String> seen = new HashSet<>();
            post.events().forEach(e -> seen.add(e.id()));
            return two.b.session(onA).resume(first.id()).compose(resumed -> resumed.ended().map(v -> {
              test.verify(() -> {
                // Exactly what followed the first progress on A: the same events, with the same ids.
                assertRestOfCall(resumed, 9, call.getValue("id"), "done", new HashSet<>(Set.of(first.id())));
                resumed.events().forEach(e -> assertTrue(seen.contains(e.id()), e::toString));
              });
              return v;
            }));
          });
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void aDeleteThroughOneInstanceEndsTheSessionOnBoth(Vertx vertx, VertxTestContext test) {
    // A learns of the delete when it next extends the record's lifetime: a quarter of the idle timeout.
    McpHttpServerOptions options = new McpHttpServerOptions().setSessionIdleTimeoutMs(2_000);
    start(vertx, options, InMemorySessionStore.create(vertx)).compose(two -> two.a.client().initialize(V11)
        .compose(onA -> {
          StreamableHttpSession onB = two.b.session(onA);
          return onB.pingStatus()
              .compose(ping -> {
                test.verify(() -> assertEquals(200, ping));
                return onB.delete();
              })
              .compose(deleted -> {
                test.verify(() -> {
                  assertEquals(200, deleted.status(), deleted::toString);
                  assertEquals(0, two.b.http.sessionCount());
                });
                return onB.post(onB.request("ping", null));
              })
              .compose(afterOnB -> {
                test.verify(() -> assertRejected(afterOnB, 404));
                return sessions.get(onA.id());
              })
              .compose(record -> {
                test.verify(() -> {
                  assertNull(record);
                  assertEquals(0, events.sessionCount());
                });
                return Poll.retry(vertx, onA::pingStatus, status -> status == 404);
              })
              .compose(v -> onA.post(onA.request("ping", null)))
              .map(afterOnA -> {
                test.verify(() -> {
                  assertRejected(afterOnA, 404);
                  assertEquals(0, two.a.http.sessionCount());
                });
                return afterOnA;
              });
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void restoresAStoredSessionForItsOwnPrincipalOnly(Vertx vertx, VertxTestContext test) {
    McpHttpServerOptions options = new McpHttpServerOptions()
        .setAuth(HttpAuthTest.jwtOptions(authorizationServer.issuer()));
    String scopes = "mcp:basic mcp:tools";
    String alice = authorizationServer.token("alice", HttpAuthTest.RESOURCE, scopes, 300);
    String bob = authorizationServer.token("bob", HttpAuthTest.RESOURCE, scopes, 300);
    start(vertx, options, InMemorySessionStore.create(vertx)).compose(two -> two.a.client().withBearer(alice)
        .initialize(V11)
        .compose(onA -> {
          StreamableHttpSession bobOnB = new StreamableHttpSession(two.b.client().withBearer(bob), onA.id(), V11, null);
          StreamableHttpSession aliceOnB = new StreamableHttpSession(two.b.client().withBearer(alice), onA.id(), V11,
              null);
          return bobOnB.post(bobOnB.request("ping", null))
              .compose(refused -> {
                test.verify(() -> {
                  assertRejected(refused, 404);
                  assertEquals(0, two.b.http.sessionCount(), "restored for a stranger");
                });
                return bobOnB.delete();
              })
              .compose(refused -> {
                test.verify(() -> assertRejected(refused, 404));
                return sessions.get(onA.id());
              })
              .compose(record -> {
                test.verify(() -> {
                  assertNotNull(record, "a stranger's delete removed the record");
                  assertEquals("alice", Principal.fromJson(record.principal()).subject());
                });
                return aliceOnB.call("tools/call", new JsonObject().put("name", "echo")
                    .put("arguments", new JsonObject().put("text", "mine")));
              })
              .compose(echo -> {
                test.verify(() -> assertEquals("mine", text(echo)));
                // Held by B now: a stranger still gets 404 there.
                return bobOnB.post(bobOnB.request("ping", null));
              })
              .map(refused -> {
                test.verify(() -> assertRejected(refused, 404));
                return refused;
              });
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void storesEachChangeBeforeTheClientHearsOfIt(Vertx vertx, VertxTestContext test) {
    // Every write takes a while: the answers (and the 202 of initialized) must wait for it.
    SessionStore slow = new SlowStore(vertx, InMemorySessionStore.create(vertx), 150);
    start(vertx, new McpHttpServerOptions(), slow).compose(two -> two.a.client()
        .post(StreamableHttp.postHeaders(), StreamableHttp.initializeRequest(V11))
        .compose(init -> {
          String id = init.header("Mcp-Session-Id");
          StreamableHttpSession onA = new StreamableHttpSession(two.a.client(), id, V11, null);
          return slow.get(id).compose(record -> {
            test.verify(() -> assertEquals("AWAITING_INITIALIZED", record.state()));
            return onA.post(StreamableHttp.notification("notifications/initialized"));
          }).compose(ack -> {
            test.verify(() -> assertEquals(202, ack.status()));
            return slow.get(id);
          }).compose(record -> {
            test.verify(() -> assertEquals("OPERATING", record.state()));
            return onA.call("logging/setLevel", new JsonObject().put("level", "error"));
          }).compose(r -> slow.get(id)).map(record -> {
            test.verify(() -> assertEquals("error", record.logLevel()));
            return record;
          });
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aSessionOutlivesItsIdleExpiryOnOneInstanceAndTheInstanceItself(Vertx vertx, VertxTestContext test) {
    // A frozen store clock: records never expire, so only the endpoints decide.
    AtomicLong clock = new AtomicLong(1);
    McpHttpServerOptions options = new McpHttpServerOptions().setSessionIdleTimeoutMs(300);
    start(vertx, options, InMemorySessionStore.create(vertx, 60_000, clock::get)).compose(two -> two.a.client()
        .initialize(V11)
        .compose(onA -> Poll.until(vertx, () -> two.a.http.sessionCount() == 0)
            .compose(v -> sessions.get(onA.id()))
            .compose(record -> {
              test.verify(() -> assertNotNull(record, "local idle expiry removed the stored record"));
              return onA.pingStatus();
            })
            .compose(ping -> {
              test.verify(() -> {
                assertEquals(200, ping, "the session was not restored where it went idle");
                assertEquals(1, two.a.http.sessionCount());
              });
              return two.a.http.close();
            })
            .compose(v -> two.b.session(onA).call("tools/call", new JsonObject().put("name", "echo")
                .put("arguments", new JsonObject().put("text", "still here"))))
            .map(echo -> {
              test.verify(() -> assertEquals("still here", text(echo)));
              return echo;
            })))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersAnIdUnknownEverywhereWith404(Vertx vertx, VertxTestContext test) {
    start(vertx).compose(two -> {
      StreamableHttpSession unknown = new StreamableHttpSession(two.b.client(), "no-such-session", V11, null);
      StreamableHttpSession tooLong = new StreamableHttpSession(two.b.client(), "x".repeat(200), V11, null);
      return Future.all(unknown.pingStatus(), tooLong.pingStatus(), unknown.delete().map(HttpReply::status),
          unknown.listen().map(SseStream::status));
    }).onComplete(test.succeeding(statuses -> test.verify(() -> {
      statuses.<Integer>list().forEach(status -> assertEquals(404, status));
      assertEquals(0, instances.b.http.sessionCount());
      test.completeNow();
    })));
  }

  @Test
  void answers503WhenTheSessionStoreCannotBeRead(Vertx vertx, VertxTestContext test) {
    start(vertx, new McpHttpServerOptions(), new FailingStore(InMemorySessionStore.create(vertx)))
        .compose(two -> new StreamableHttpSession(two.b.client(), "some-session", V11, null).post(
            new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "ping")))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertRejected(reply, 503);
          assertNotNull(reply.header("Retry-After"));
          test.completeNow();
        })));
  }

  @Test
  void restoringCountsAgainstTheSessionLimit(Vertx vertx, VertxTestContext test) {
    start(vertx, new McpHttpServerOptions().setMaxSessions(1), InMemorySessionStore.create(vertx))
        .compose(two -> Future.all(two.a.client().initialize(V11), two.b.client().initialize(V11))
            .compose(both -> {
              StreamableHttpSession fromA = both.resultAt(0);
              return two.b.session(fromA).post(two.b.session(fromA).request("ping", null));
            }))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertRejected(reply, 503);
          assertEquals(1, instances.b.http.sessionCount());
          test.completeNow();
        })));
  }

  /** A session store whose writes take {@code delayMs}. */
  private record SlowStore(Vertx vertx, SessionStore delegate, long delayMs) implements SessionStore {

    @Override
    public Future<Void> put(SessionRecord record, long ttlMs) {
      Promise<Void> written = Promise.promise();
      vertx.setTimer(delayMs, t -> delegate.put(record, ttlMs).onComplete(written));
      return written.future();
    }

    @Override
    public Future<SessionRecord> get(String sessionId) {
      return delegate.get(sessionId);
    }

    @Override
    public Future<Boolean> touch(String sessionId, long ttlMs) {
      return delegate.touch(sessionId, ttlMs);
    }

    @Override
    public Future<Boolean> remove(String sessionId) {
      return delegate.remove(sessionId);
    }

    @Override
    public Future<Void> close() {
      return delegate.close();
    }
  }

  /** A session store that cannot be reached for reads. */
  private record FailingStore(SessionStore delegate) implements SessionStore {

    @Override
    public Future<Void> put(SessionRecord record, long ttlMs) {
      return delegate.put(record, ttlMs);
    }

    @Override
    public Future<SessionRecord> get(String sessionId) {
      return Future.failedFuture(new IllegalStateException("store unreachable"));
    }

    @Override
    public Future<Boolean> touch(String sessionId, long ttlMs) {
      return delegate.touch(sessionId, ttlMs);
    }

    @Override
    public Future<Boolean> remove(String sessionId) {
      return delegate.remove(sessionId);
    }

    @Override
    public Future<Void> close() {
      return delegate.close();
    }
  }
}
