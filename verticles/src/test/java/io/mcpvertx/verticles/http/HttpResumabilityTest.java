package io.mcpvertx.verticles.http;

import static io.mcpvertx.verticles.http.HttpChecks.assertRejected;
import static io.mcpvertx.verticles.http.HttpChecks.assertSchemaValid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.spi.EventStore;
import io.mcpvertx.testing.ForwardingEventStore;
import io.mcpvertx.testing.http.HttpReply;
import io.mcpvertx.testing.http.SseParser;
import io.mcpvertx.testing.http.SseStream;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.testing.http.StreamableHttpSession;
import io.mcpvertx.spi.memory.InMemoryEventStore;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Resumable streams: a dropped POST stream resumed with {@code GET} + {@code Last-Event-ID} gets the rest of its
 * own events exactly once, never another stream's; a dropped connection is not a cancellation.
 */
@ExtendWith(VertxExtension.class)
class HttpResumabilityTest {

  private static final String V11 = "2025-11-25";

  private static boolean isProgress(SseParser.Event event, int progress) {
    return event.hasMessage() && "notifications/progress".equals(event.message().getString("method"))
        && event.message().getJsonObject("params").getInteger("progress") == progress;
  }

  /**
   * What a resumption of a {@code gated} call after its first progress must carry: progress 2 and 3 with the
   * call's token, then the call's response, each once, all with fresh ids.
   */
  private static void assertRestOfGatedCall(SseStream resumed, Object token, Object requestId, Set<String> seenIds) {
    List<SseParser.Event> events = resumed.events();
    List<JsonObject> messages = resumed.messages();
    assertEquals(3, messages.size(), events::toString);
    for (int i = 0; i < 2; i++) {
      JsonObject progress = messages.get(i);
      assertEquals(token, progress.getJsonObject("params").getValue("progressToken"), events::toString);
      assertEquals(i + 2, progress.getJsonObject("params").getInteger("progress"), events::toString);
      assertSchemaValid(V11, progress, null);
    }
    JsonObject response = messages.get(2);
    assertTrue(SseStream.isResponseTo(response, requestId), events::toString);
    assertEquals("released", response.getJsonObject("result").getJsonArray("content").getJsonObject(0)
        .getString("text"));
    assertSchemaValid(V11, response, "tools/call");
    for (SseParser.Event event : events) {
      assertTrue(event.id() != null && seenIds.add(event.id()), () -> "a missing or repeated id: " + events);
    }
  }

  @Test
  void resumesADroppedPostStreamWhileTheToolRunsAndGetsTheRestOnce(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> server.client().initialize(V11).compose(session -> {
      JsonObject call = session.toolCall("gated", new JsonObject(), "g");
      return session.stream(call).compose(post -> post.await(e -> isProgress(e, 1)).compose(first -> {
        Set<String> seen = new HashSet<>();
        post.events().forEach(e -> seen.add(e.id()));
        return post.drop()
            .compose(v -> post.over())
            .compose(v -> session.resume(first.id()))
            .compose(resumed -> {
              test.verify(() -> {
                assertEquals(200, resumed.status());
                assertTrue(resumed.isSse());
              });
              server.tools.gate.complete();
              return resumed.ended().map(v -> {
                test.verify(() -> {
                  assertRestOfGatedCall(resumed, "g", call.getValue("id"), seen);
                  assertFalse(server.tools.gatedCancelled.get(), "a dropped connection cancelled the request");
                });
                return v;
              });
            });
      }));
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void resumesAfterTheToolFinishedFromTheStoredEvents(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> server.client().initialize(V11).compose(session -> {
      JsonObject call = session.toolCall("gated", new JsonObject(), 7);
      return session.stream(call).compose(post -> post.await(e -> isProgress(e, 1)).compose(first -> post.drop()
          .compose(v -> post.over())
          .compose(v -> {
            server.tools.gate.complete();
            return Poll.until(vertx, () -> {
              Future<EventStore.Replay> replay = server.events.replayAfter(session.id(), first.id());
              return replay.succeeded() && replay.result().complete();
            });
          })
          .compose(v -> session.resume(first.id()))
          .compose(resumed -> resumed.ended().map(v -> {
            test.verify(() -> {
              assertRestOfGatedCall(resumed, 7, call.getValue("id"), new HashSet<>(Set.of(first.id())));
              assertFalse(server.tools.gatedCancelled.get());
            });
            return v;
          }))));
    })).onComplete(test.succeedingThenComplete());
  }

  /**
   * An event store whose appends are stored at once but acknowledged {@code ackDelayMs} later, as a remote store's
   * are: a resumption that reads the replay in between gets the event from the replay, then from the live stream.
   */
  private static final class SlowAcks extends ForwardingEventStore {

    private final Vertx vertx;
    private final long ackDelayMs;

    SlowAcks(Vertx vertx, InMemoryEventStore inner, long ackDelayMs) {
      super(inner);
      this.vertx = vertx;
      this.ackDelayMs = ackDelayMs;
    }

    @Override
    public Future<String> append(String sessionId, String streamId, Buffer data) {
      return delegate.append(sessionId, streamId, data).compose(id -> {
        Promise<String> acked = Promise.promise();
        vertx.setTimer(ackDelayMs, t -> acked.complete(id));
        return acked.future();
      });
    }
  }

  @Test
  void anEventInTheReplayIsNotSentAgainWhenItsLiveCopyComesAfter(Vertx vertx, VertxTestContext test) {
    InMemoryEventStore events = new InMemoryEventStore();
    HttpTestServer.start(vertx, events, new SlowAcks(vertx, events, 600)).compose(server -> server.client()
        .initialize(V11).compose(session -> {
          JsonObject call = session.toolCall("gated", new JsonObject(), "late");
          return session.stream(call).compose(post -> post.await(e -> isProgress(e, 1)).compose(first -> post.drop()
              .compose(v -> post.over())
              .compose(v -> {
                server.tools.gate.complete();
                // The rest is stored (its acknowledgements, and so its live copies, still to come): resume now.
                return Poll.until(vertx, () -> {
                  Future<EventStore.Replay> replay = events.replayAfter(session.id(), first.id());
                  return replay.succeeded() && replay.result().events().size() == 3;
                });
              })
              .compose(v -> session.resume(first.id()))
              .compose(resumed -> resumed.ended().map(v -> {
                test.verify(() -> assertRestOfGatedCall(resumed, "late", call.getValue("id"),
                    new HashSet<>(Set.of(first.id()))));
                return v;
              }))));
        })).onComplete(test.succeedingThenComplete());
  }

  /** A resumed {@code gated} call, and what the resumption must bring. */
  private record Resumed(SseStream stream, Object token, Object requestId, String lastEventId) {

    void assertRest() {
      assertRestOfGatedCall(stream, token, requestId, new HashSet<>(Set.of(lastEventId)));
    }
  }

  @Test
  void resumesOnAnyOfSeveralHttpVerticles(Vertx vertx, VertxTestContext test) {
    // Each step uses a new client, so a new connection, which the shared port hands to the next verticle.
    HttpTestServer.start(vertx, new McpHttpServerOptions(), 4).compose(server -> {
      List<Future<Resumed>> sessions = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        String token = "v" + i;
        sessions.add(server.client().initialize(V11).compose(session -> {
          StreamableHttpSession caller = new StreamableHttpSession(server.client(), session.id(), V11, null);
          StreamableHttpSession resumer = new StreamableHttpSession(server.client(), session.id(), V11, null);
          JsonObject call = caller.toolCall("gated", new JsonObject(), token);
          return caller.stream(call).compose(post -> post.await(e -> isProgress(e, 1)).compose(first ->
              post.drop().compose(v -> post.over()).compose(v -> resumer.resume(first.id()))
                  .map(resumed -> new Resumed(resumed, token, call.getValue("id"), first.id()))));
        }));
      }
      return Future.all(sessions).compose(all -> {
        server.tools.gate.complete();
        List<Resumed> resumed = all.list();
        return Future.all(resumed.stream().map(r -> r.stream().ended()).toList())
            .map(v -> {
              test.verify(() -> resumed.forEach(Resumed::assertRest));
              return v;
            });
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void neverReplaysAnotherStreamsEvents(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> server.client().initialize(V11).compose(session -> {
      JsonObject callA = session.toolCall("gated", new JsonObject(), "a");
      JsonObject callB = session.toolCall("gated", new JsonObject(), "b");
      return Future.all(session.stream(callA), session.stream(callB)).compose(streams -> {
        SseStream postA = streams.resultAt(0);
        SseStream postB = streams.resultAt(1);
        return Future.all(postA.await(e -> isProgress(e, 1)), postB.await(e -> isProgress(e, 1)))
            .compose(firsts -> Future.all(postA.drop(), postB.drop())
                .compose(v -> Future.all(postA.over(), postB.over()))
                .compose(v -> Future.all(session.resume(firsts.<SseParser.Event>resultAt(0).id()),
                    session.resume(firsts.<SseParser.Event>resultAt(1).id()))))
            .compose(resumed -> {
              server.tools.gate.complete();
              SseStream a = resumed.resultAt(0);
              SseStream b = resumed.resultAt(1);
              return Future.all(a.ended(), b.ended()).map(v -> {
                test.verify(() -> {
                  Set<String> seen = new HashSet<>();
                  assertRestOfGatedCall(a, "a", callA.getValue("id"), seen);
                  assertRestOfGatedCall(b, "b", callB.getValue("id"), seen);
                });
                return v;
              });
            });
      });
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void refusesASecondConcurrentResumptionOfTheSameStreamWith409(Vertx vertx, VertxTestContext test) {
    // Two consumers of one stream would each get part of it: the event bus hands each message to one of them.
    HttpTestServer.start(vertx).compose(server -> server.client().initialize(V11).compose(session -> {
      JsonObject call = session.toolCall("gated", new JsonObject(), "twice");
      return session.stream(call).compose(post -> post.await(e -> isProgress(e, 1)).compose(first -> post.drop()
          .compose(v -> post.over())
          .compose(v -> session.resume(first.id()))
          .compose(resumed -> session.resume(first.id()).compose(second -> {
            test.verify(() -> assertEquals(409, second.status()));
            return second.reply();
          }).compose(second -> {
            test.verify(() -> assertRejected(second, 409));
            server.tools.gate.complete();
            return resumed.ended();
          }).map(v -> {
            test.verify(() -> assertRestOfGatedCall(resumed, "twice", call.getValue("id"),
                new HashSet<>(Set.of(first.id()))));
            return v;
          }))));
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsUnknownOrForeignLastEventIdWith400(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> {
      StreamableHttp client = server.client();
      return Future.all(client.initialize(V11), client.initialize(V11)).compose(both -> {
        StreamableHttpSession mine = both.resultAt(0);
        StreamableHttpSession other = both.resultAt(1);
        return other.post(other.toolCall("progress", new JsonObject().put("count", 1), "x")).compose(reply -> {
          String foreign = reply.events().get(1).id();
          String own = mine.id();
          return Future.all(List.of(mine.resume(foreign), mine.resume("garbage"), mine.resume("p1_999"),
              mine.resume(foreign.substring(0, foreign.lastIndexOf('_')) + "_1000"), mine.resume(own + "_1")));
        });
      }).compose(all -> Future.all(all.<SseStream>list().stream().map(SseStream::reply).toList()));
    }).map(replies -> {
      test.verify(() -> replies.<HttpReply>list().forEach(reply -> assertRejected(reply, 400)));
      return replies;
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void primesEveryStreamWithItsOwnEventId(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx, new McpHttpServerOptions().setResponseMode(ResponseMode.SSE))
        .compose(server -> server.client().initialize(V11))
        .compose(session -> session.listen().compose(get -> get.await(e -> true).compose(getFirst ->
            Future.all(session.post(session.request("ping", null)), session.post(session.request("ping", null)))
                .map(posts -> {
                  test.verify(() -> {
                    Set<String> primingIds = new HashSet<>();
                    assertTrue(getFirst.isPriming(), getFirst::toString);
                    primingIds.add(getFirst.id());
                    for (HttpReply post : posts.<HttpReply>list()) {
                      SseParser.Event first = post.events().get(0);
                      assertTrue(first.isPriming(), post::toString);
                      assertTrue(primingIds.add(first.id()), "two streams share a priming id");
                    }
                  });
                  return posts;
                }))))
        .onComplete(test.succeedingThenComplete());
  }

  /**
   * A stream answered at once stores its priming event, answer and completion in one go: a client that lost the
   * connection after the priming event still resumes from it, gets the answer, and its GET ends there.
   */
  @Test
  void resumesFromThePrimingEventOfAStreamAnsweredAtOnce(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx, new McpHttpServerOptions().setResponseMode(ResponseMode.SSE))
        .compose(server -> server.client().initialize(V11))
        .compose(session -> {
          JsonObject ping = session.request("ping", null);
          return session.post(ping).compose(post -> {
            List<SseParser.Event> events = post.events();
            test.verify(() -> {
              assertEquals(2, events.size(), events::toString);
              assertTrue(events.get(0).isPriming(), events::toString);
              assertTrue(SseStream.isResponseTo(events.get(1).message(), ping.getValue("id")), events::toString);
            });
            return session.resume(events.get(0).id()).compose(resumed -> resumed.ended().map(v -> {
              test.verify(() -> {
                List<SseParser.Event> replayed = resumed.events().stream().filter(SseParser.Event::hasMessage).toList();
                assertEquals(List.of(events.get(1).id()), replayed.stream().map(SseParser.Event::id).toList(),
                    resumed.events()::toString);
                assertEquals(events.get(1).message(), replayed.get(0).message());
              });
              return v;
            })).compose(v -> session.resume(events.get(1).id())).compose(resumed -> resumed.ended().map(v -> {
              test.verify(() -> assertTrue(resumed.messages().isEmpty(), resumed.events()::toString));
              return v;
            }));
          });
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void ssePollingClosesAfterPrimingWithRetryAndGetCollectsTheResult(Vertx vertx, VertxTestContext test) {
    McpHttpServerOptions options = new McpHttpServerOptions().setSsePolling(true).setSseRetryMs(1234);
    HttpTestServer.start(vertx, options).compose(server -> server.client().initialize(V11).compose(session -> {
      JsonObject call = session.toolCall("gated", new JsonObject(), "poll");
      return session.post(call).compose(post -> {
        List<SseParser.Event> events = post.events();
        test.verify(() -> {
          assertTrue(post.isSse(), post::toString);
          assertTrue(events.get(0).isPriming(), events::toString);
          assertTrue(events.stream().anyMatch(e -> e.retry() == 1234), () -> "no retry field: " + events);
          assertTrue(events.stream().noneMatch(SseParser.Event::hasMessage), events::toString);
        });
        return session.resume(events.get(0).id());
      }).compose(resumed -> resumed.await(e -> isProgress(e, 1)).compose(first -> {
        server.tools.gate.complete();
        return resumed.ended();
      }).map(v -> {
        test.verify(() -> {
          List<JsonObject> messages = resumed.messages();
          assertEquals(4, messages.size(), messages::toString);
          assertTrue(SseStream.isResponseTo(messages.get(3), call.getValue("id")), messages::toString);
          assertSchemaValid(V11, messages.get(3), "tools/call");
        });
        return v;
      }));
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void aHandlerClosesItsStreamAfterPrimingWithItsRetryAndTheGetGetsTheRestOnce(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> server.client().initialize(V11).compose(session -> {
      JsonObject call = session.toolCall("handover", new JsonObject(), "h");
      return session.post(call).compose(post -> {
        List<SseParser.Event> events = post.events();
        test.verify(() -> {
          assertTrue(post.isSse(), post::toString);
          assertTrue(events.get(0).isPriming(), events::toString);
          assertTrue(events.stream().anyMatch(e -> e.retry() == 321), () -> "no retry field: " + events);
          assertTrue(events.stream().noneMatch(e -> e.hasMessage()
              && SseStream.isResponseTo(e.message(), call.getValue("id"))), events::toString);
        });
        return server.tools.handedOver.future().compose(asked -> {
          test.verify(() -> assertTrue(asked));
          String lastId = events.stream().map(SseParser.Event::id).filter(id -> id != null)
              .reduce((first, second) -> second).orElseThrow();
          return session.resume(lastId);
        }).compose(resumed -> {
          server.tools.gate.complete();
          return resumed.ended().map(v -> {
            test.verify(() -> {
              List<JsonObject> all = new ArrayList<>(post.messages());
              all.addAll(resumed.messages());
              assertEquals(1, all.stream().filter(m -> "notifications/progress".equals(m.getString("method")))
                  .count(), all::toString);
              assertEquals(1, all.stream().filter(m -> SseStream.isResponseTo(m, call.getValue("id"))).count(),
                  all::toString);
              JsonObject response = all.get(all.size() - 1);
              assertEquals("handed over", response.getJsonObject("result").getJsonArray("content")
                  .getJsonObject(0).getString("text"));
              assertSchemaValid(V11, response, "tools/call");
            });
            return v;
          });
        });
      });
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void aHandlerCannotCloseTheStreamOfARevisionWithoutPrimingEvents(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> server.client().initialize("2025-06-18").compose(session -> {
      JsonObject call = session.toolCall("handover", new JsonObject(), "h");
      Future<HttpReply> answered = session.post(call);
      return server.tools.handedOver.future().compose(asked -> {
        test.verify(() -> assertFalse(asked, "a 2025-06-18 client cannot resume"));
        server.tools.gate.complete();
        return answered;
      }).map(post -> {
        test.verify(() -> assertTrue(post.messages().stream()
            .anyMatch(m -> SseStream.isResponseTo(m, call.getValue("id"))), post::toString));
        return post;
      });
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void aHandlerCannotCloseAJsonOnlyResponse(Vertx vertx, VertxTestContext test) {
    McpHttpServerOptions options = new McpHttpServerOptions().setResponseMode(ResponseMode.JSON);
    HttpTestServer.start(vertx, options).compose(server -> server.client().initialize(V11).compose(session -> {
      JsonObject call = session.toolCall("handover", new JsonObject(), "h");
      Future<HttpReply> answered = session.post(call);
      return server.tools.handedOver.future().compose(asked -> {
        test.verify(() -> assertFalse(asked, "a JSON response cannot be resumed"));
        server.tools.gate.complete();
        return answered;
      }).map(post -> {
        test.verify(() -> assertEquals("handed over", post.json().getJsonObject("result").getJsonArray("content")
            .getJsonObject(0).getString("text"), post::toString));
        return post;
      });
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void deliversListChangedOnTheStandaloneStreamAndReplaysWhatWasMissed(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> server.client().initialize(V11).compose(session ->
        session.listen().compose(get -> get.await(SseParser.Event::isPriming).compose(priming -> {
          server.mcp.tool(Tool.builder("late").description("Registered at run time").build(),
              (args, ctx) -> Future.succeededFuture(ToolResult.text("late")));
          return get.await(SseParser.Event::hasMessage);
        }).compose(changed -> {
          test.verify(() -> {
            assertEquals("notifications/tools/list_changed", changed.message().getString("method"));
            assertSchemaValid(V11, changed.message(), null);
          });
          // Disconnected, the client misses the next change; resuming the standalone stream brings it back.
          return get.drop().compose(v -> get.over()).map(changed);
        }).compose(changed -> {
          server.mcp.removeTool("late");
          return Poll.retry(vertx, () -> session.resume(changed.id()), s -> s.status() != 409);
        }).compose(resumed -> resumed.await(SseParser.Event::hasMessage).map(missed -> {
          test.verify(() -> {
            assertEquals(200, resumed.status());
            assertEquals("notifications/tools/list_changed", missed.message().getString("method"));
          });
          return missed;
        })))))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void refusesASecondStandaloneGetWith409UntilTheFirstCloses(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> server.client().initialize(V11).compose(session ->
        session.listen().compose(first -> first.await(SseParser.Event::isPriming)
            .compose(primed -> session.listen()).compose(SseStream::reply)
            .compose(second -> {
              test.verify(() -> assertRejected(second, 409));
              return first.drop().compose(v -> first.over());
            })
            .compose(v -> Poll.retry(vertx, session::listen, s -> s.status() != 409))
            .map(third -> {
              test.verify(() -> assertEquals(200, third.status()));
              return third;
            }))))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void anExplicitCancellationReachesTheToolAndEndsItsStream(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> server.client().initialize(V11).compose(session -> {
      JsonObject call = session.toolCall("gated", new JsonObject(), "c");
      JsonObject cancel = new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/cancelled")
          .put("params", new JsonObject().put("requestId", call.getValue("id")).put("reason", "test"));
      return session.stream(call).compose(post -> post.await(e -> isProgress(e, 1))
          .compose(first -> session.post(cancel))
          .compose(ack -> {
            test.verify(() -> assertEquals(202, ack.status()));
            return Poll.until(vertx, server.tools.gatedCancelled::get);
          })
          .compose(v -> post.over())
          .map(v -> {
            test.verify(() -> assertTrue(post.messages().stream().noneMatch(m -> m.containsKey("result"))));
            return v;
          }));
    })).onComplete(test.succeedingThenComplete());
  }
}
