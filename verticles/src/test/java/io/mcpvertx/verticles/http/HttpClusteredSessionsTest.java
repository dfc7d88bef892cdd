package io.mcpvertx.verticles.http;

import static io.mcpvertx.verticles.http.HttpChecks.assertSchemaValid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.testing.http.HttpReply;
import io.mcpvertx.testing.http.SseParser;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Sessions across instances of a cluster: whichever instance a request lands on, it reaches the one instance that
 * runs the session; when that instance leaves or dies, the session moves, and requests it left unanswered are
 * answered with an error that tells the client to send them again.
 */
@ExtendWith(VertxExtension.class)
class HttpClusteredSessionsTest {

  private static final String V11 = "2025-11-25";
  private static final JsonObject ELICITATION = new JsonObject().put("elicitation", new JsonObject());

  private ClusterNodes cluster;

  @AfterEach
  void close() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private Future<List<ClusterNodes.Node>> start(Vertx vertx, int count) {
    cluster = ClusterNodes.create(vertx);
    Future<?> started = Future.succeededFuture();
    for (int i = 0; i < count; i++) {
      String name = "node" + (char) ('a' + i);
      started = started.compose(v -> cluster.start(name));
    }
    return started.map(v -> cluster.nodes);
  }

  private static String text(JsonObject result) {
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }

  private static boolean isElicitation(SseParser.Event event) {
    return event.hasMessage() && "elicitation/create".equals(event.message().getString("method"));
  }

  private static boolean isProgress(SseParser.Event event) {
    return event.hasMessage() && "notifications/progress".equals(event.message().getString("method"));
  }

  @Test
  void everyInstanceReachesTheOneInstanceThatRunsTheSession(Vertx vertx, VertxTestContext test) {
    start(vertx, 3).compose(nodes -> nodes.get(0).client().initialize(V11).compose(onA -> {
      StreamableHttpSession onB = nodes.get(1).session(onA);
      StreamableHttpSession onC = nodes.get(2).session(onA);
      return onB.call("logging/setLevel", new JsonObject().put("level", "error"))
          .compose(r -> onC.call("tools/call", new JsonObject().put("name", "echo")
              .put("arguments", new JsonObject().put("text", "via c"))))
          .compose(echo -> {
            test.verify(() -> assertEquals("via c", text(echo)));
            return onB.post(onB.toolCall("progress", new JsonObject().put("count", 3), "tok"));
          })
          .compose(progress -> {
            test.verify(() -> {
              List<JsonObject> messages = progress.messages();
              assertEquals(4, messages.size(), progress::toString);
              assertEquals("done", text(messages.get(3).getJsonObject("result")));
              assertSchemaValid(V11, messages.get(3), "tools/call");
            });
            return cluster.leases.sessionOwner(onA.id());
          })
          .map(owner -> {
            test.verify(() -> assertEquals(nodes.get(0).instance.id(), owner, "the creating instance runs it"));
            return owner;
          });
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void anElicitationAskedOnOneInstanceIsAnsweredThroughAnother(Vertx vertx, VertxTestContext test) {
    start(vertx, 3).compose(nodes -> nodes.get(0).client().initialize(V11, ELICITATION).compose(onA -> {
      StreamableHttpSession onB = nodes.get(1).session(onA);
      StreamableHttpSession onC = nodes.get(2).session(onA);
      JsonObject call = onB.toolCall("ask", new JsonObject(), null);
      return onB.stream(call).compose(post -> post.await(HttpClusteredSessionsTest::isElicitation)
          .compose(asked -> onC.post(new JsonObject().put("jsonrpc", "2.0").put("id", asked.message().getValue("id"))
              .put("result", new JsonObject().put("action", "accept")
                  .put("content", new JsonObject().put("name", "Ada")))))
          .compose(ack -> {
            test.verify(() -> assertEquals(202, ack.status(), ack::toString));
            return post.awaitResponse(call.getValue("id"));
          })
          .map(answered -> {
            test.verify(() -> assertEquals("hello Ada", text(answered.message().getJsonObject("result"))));
            return answered;
          }));
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void theStandaloneStreamHeldOnOneInstanceCarriesWhatTheOwnerSends(Vertx vertx, VertxTestContext test) {
    start(vertx, 2).compose(nodes -> nodes.get(0).client().initialize(V11).compose(onA -> {
      StreamableHttpSession onB = nodes.get(1).session(onA);
      String uri = ClusterNodes.RESOURCE_URI;
      return onA.call("resources/subscribe", new JsonObject().put("uri", uri))
          .compose(r -> onB.listen())
          .compose(listening -> {
            Future<SseParser.Event> updated = listening.await(e -> e.hasMessage()
                && "notifications/resources/updated".equals(e.message().getString("method")));
            nodes.get(0).mcp.resourceUpdated(uri);
            return updated;
          });
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void aDeleteThroughAnyInstanceEndsTheSessionEverywhere(Vertx vertx, VertxTestContext test) {
    start(vertx, 3).compose(nodes -> nodes.get(0).client().initialize(V11).compose(onA -> {
      StreamableHttpSession onB = nodes.get(1).session(onA);
      StreamableHttpSession onC = nodes.get(2).session(onA);
      return onB.pingStatus()
          .compose(status -> onC.delete())
          .compose(deleted -> {
            test.verify(() -> assertEquals(200, deleted.status(), deleted::toString));
            // At once: the delete answered only after the owner ended the session.
            return onA.pingStatus();
          })
          .compose(onOwner -> {
            test.verify(() -> assertEquals(404, onOwner, "through the owner"));
            return onB.pingStatus();
          })
          .map(status -> {
            test.verify(() -> assertEquals(404, status));
            return status;
          });
    })).onComplete(test.succeedingThenComplete());
  }

  /**
   * The owner of a session must learn that it was initialized when {@code notifications/initialized} went through
   * another instance: its sweeper used to end such a session, in use, as never initialized (and its task handlers
   * with it, their timers closed with the session's verticle).
   */
  @Test
  void aSessionInitializedThroughAnotherInstanceOutlivesTheInitializeDeadline(Vertx vertx, VertxTestContext test) {
    cluster = ClusterNodes.create(vertx);
    McpHttpServerOptions quick = new McpHttpServerOptions().setPort(0).setInitializeTimeoutMs(300);
    cluster.start("nodea", quick).compose(a -> cluster.start("nodeb", quick).compose(b -> a.client()
        .initializeOnly(V11).compose(created -> {
          StreamableHttpSession onA = new StreamableHttpSession(a.client(), created.header("Mcp-Session-Id"), V11,
              null);
          return b.session(onA).post(StreamableHttp.notification("notifications/initialized"))
              .compose(ack -> {
                test.verify(() -> assertEquals(202, ack.status(), ack::toString));
                // A session made after it and never initialized: once A's sweeper ended that one, the deadline
                // has passed for the first too. (A runs both; B holds a route to the first.)
                return a.client().initializeOnly(V11);
              })
              .compose(other -> Poll.until(vertx, () -> a.http.sessionCount() < 2))
              .compose(swept -> {
                // That one ended first or with the first; a few more sweeps, so the first cannot still be due.
                Promise<Void> later = Promise.promise();
                vertx.setTimer(1_000, t -> later.complete());
                return later.future();
              })
              .compose(swept -> {
                // Asked of A itself: a request would restore a swept session from the store at once.
                test.verify(() -> assertEquals(1, a.http.sessionCount(), "A still runs the initialized session"));
                return onA.call("tools/call", new JsonObject().put("name", "echo")
                    .put("arguments", new JsonObject().put("text", "still here")));
              })
              .map(echo -> {
                test.verify(() -> assertEquals("still here", text(echo)));
                return echo;
              });
        })))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void whenTheOwnerLeavesTheNextRequestMovesTheSession(Vertx vertx, VertxTestContext test) {
    start(vertx, 2).compose(nodes -> nodes.get(0).client().initialize(V11).compose(onA -> {
      ClusterNodes.Node a = nodes.get(0);
      ClusterNodes.Node b = nodes.get(1);
      StreamableHttpSession onB = b.session(onA);
      return onB.call("logging/setLevel", new JsonObject().put("level", "error"))
          .compose(r -> a.http.close())
          .compose(v -> a.instance.close())
          .compose(v -> onB.call("tools/call", new JsonObject().put("name", "echo")
              .put("arguments", new JsonObject().put("text", "moved"))))
          .compose(echo -> {
            test.verify(() -> assertEquals("moved", text(echo)));
            return cluster.leases.sessionOwner(onA.id());
          })
          .map(owner -> {
            test.verify(() -> assertEquals(b.instance.id(), owner));
            return owner;
          });
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void requestsLeftUnansweredByADeadOwnerAreAnsweredWithARetryableError(Vertx vertx, VertxTestContext test) {
    cluster = ClusterNodes.create(vertx);
    // A renews too rarely to notice anything during the test: it stands for an instance that died silently.
    cluster.start("nodea", 120_000, 30_000)
        .compose(a -> cluster.start("nodeb").compose(b -> a.client().initialize(V11).compose(onA -> {
          StreamableHttpSession onB = b.session(onA);
          JsonObject call = onB.toolCall("gated", new JsonObject(), "tok");
          return onB.stream(call).compose(post -> a.tools.reachedGate.future()
              .compose(v -> cluster.leases.release(a.instance.id()))
              .compose(v -> post.awaitResponse(call.getValue("id")))
              .compose(answered -> {
                test.verify(() -> {
                  JsonObject error = answered.message().getJsonObject("error");
                  assertEquals(-32603, error.getInteger("code"), answered::toString);
                  assertTrue(error.getString("message").contains("send the request again"), error::toString);
                  assertSchemaValid(V11, answered.message(), null);
                });
                return onB.call("tools/call", new JsonObject().put("name", "echo")
                    .put("arguments", new JsonObject().put("text", "again")));
              })
              .compose(echo -> {
                test.verify(() -> assertEquals("again", text(echo)));
                return cluster.leases.sessionOwner(onA.id());
              })
              .map(owner -> {
                test.verify(() -> assertEquals(b.instance.id(), owner, "the session moved to B"));
                return owner;
              }));
        })))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aRequestADeadOwnerNeverTookIsHeldAndServedWhereTheSessionMoves(Vertx vertx, VertxTestContext test) {
    cluster = ClusterNodes.create(vertx);
    // A renews too rarely to notice anything during the test: it stands for an instance that died silently. B
    // watches the owners of its routes as rarely: only the held request can find out that A is gone.
    cluster.start("nodea", 120_000, 30_000).compose(a -> cluster.start("nodeb", 120_000, 30_000).compose(b -> {
      Set<String> before = new HashSet<>(vertx.deploymentIDs());
      return a.client().initialize(V11).compose(onA -> {
        List<String> sessionVerticles = vertx.deploymentIDs().stream().filter(id -> !before.contains(id)).toList();
        test.verify(() -> assertEquals(1, sessionVerticles.size(), "the session's verticle: " + sessionVerticles));
        StreamableHttpSession onB = b.session(onA);
        return onB.call("tools/call", new JsonObject().put("name", "echo")
                .put("arguments", new JsonObject().put("text", "routed")))
            // B routes to A now; then A's session dies with nothing said to anyone, as in a kill.
            .compose(routed -> Future.all(sessionVerticles.stream().map(vertx::undeploy).toList()))
            .compose(v -> {
              Future<JsonObject> held = onB.call("tools/call", new JsonObject().put("name", "echo")
                  .put("arguments", new JsonObject().put("text", "after the death")));
              // The request arrived while A's lease was live: it waits for the lease, not for the client.
              cluster.leases.release(a.instance.id());
              return held;
            })
            .compose(echo -> {
              test.verify(() -> assertEquals("after the death", text(echo), echo::encode));
              return cluster.leases.sessionOwner(onA.id());
            })
            .map(owner -> {
              test.verify(() -> assertEquals(b.instance.id(), owner, "the session moved to B"));
              return owner;
            });
      });
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void aStreamWhoseInstanceDiedIsAnsweredWhenResumedElsewhere(Vertx vertx, VertxTestContext test) {
    cluster = ClusterNodes.create(vertx);
    cluster.start("nodea")
        .compose(a -> cluster.start("nodeb", 120_000, 30_000)
        .compose(b -> cluster.start("nodec").compose(c -> a.client().initialize(V11).compose(onA -> {
          StreamableHttpSession onB = b.session(onA);
          StreamableHttpSession onC = c.session(onA);
          JsonObject call = onB.toolCall("gated", new JsonObject(), "tok");
          // The stream of the call is produced by B; B dies after progress 1 (its lease goes, nothing answers).
          return onB.stream(call).compose(post -> post.await(HttpClusteredSessionsTest::isProgress)
              .compose(progress -> cluster.leases.release(b.instance.id())
                  .compose(v -> onC.resume(progress.id())))
              .compose(resumed -> resumed.awaitResponse(call.getValue("id")))
              .compose(answered -> {
                test.verify(() -> {
                  JsonObject error = answered.message().getJsonObject("error");
                  assertEquals(-32603, error.getInteger("code"), answered::toString);
                  assertNotEquals(null, answered.id());
                  // A still runs the call, whose answer would go to B: it was cancelled, so the id is free again.
                  assertTrue(a.tools.gatedCancelled.get(), "the owner cancelled the request its dead producer held");
                });
                // The client does as told: the same request again, through C. It is served, not refused as a
                // request in progress.
                return onC.stream(call);
              })
              .compose(again -> {
                a.tools.gate.tryComplete();
                return again.awaitResponse(call.getValue("id"));
              })
              .map(served -> {
                test.verify(() -> assertEquals("released", served.message().getJsonObject("result")
                    .getJsonArray("content").getJsonObject(0).getString("text"), served::toString));
                return served;
              }));
        }))))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void theSameRequestSentAgainThroughAnotherInstanceTakesOverTheRunInProgress(Vertx vertx, VertxTestContext test) {
    // What a balancer does when the instance holding a POST goes away before answering: it sends the POST through
    // another one. The owner still runs the request; the second exchange gets its answer, and the first is let go.
    start(vertx, 3).compose(nodes -> nodes.get(0).client().initialize(V11).compose(onA -> {
      ClusterNodes.Node a = nodes.get(0);
      StreamableHttpSession onB = nodes.get(1).session(onA);
      StreamableHttpSession onC = nodes.get(2).session(onA);
      JsonObject call = onB.toolCall("gated", new JsonObject(), null);
      Future<HttpReply> first = onB.post(call);
      return a.tools.reachedGate.future()
          .compose(v -> {
            Future<HttpReply> second = onC.post(call);
            // The first exchange is let go once the owner has handed the request to the second one.
            return first.compose(let -> {
              a.tools.gate.tryComplete();
              return second.map(answered -> {
                test.verify(() -> {
                  assertEquals(202, let.status(), let::toString);
                  assertEquals(200, answered.status(), answered::toString);
                  assertEquals("released", text(answered.json().getJsonObject("result")), answered::toString);
                  assertEquals(1, a.tools.gatedRuns.get(), "the request ran once");
                  assertFalse(a.tools.gatedCancelled.get(), "the request was not cancelled");
                });
                return answered;
              });
            });
          });
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void aStreamFollowedElsewhereIsAnsweredWhenItsInstanceDiesLater(Vertx vertx, VertxTestContext test) {
    cluster = ClusterNodes.create(vertx);
    cluster.start("nodea")
        .compose(a -> cluster.start("nodeb", 120_000, 30_000)
        .compose(b -> cluster.start("nodec").compose(c -> a.client().initialize(V11).compose(onA -> {
          StreamableHttpSession onB = b.session(onA);
          StreamableHttpSession onC = c.session(onA);
          JsonObject call = onB.toolCall("gated", new JsonObject(), "tok");
          // The client follows B's stream through C while B still lives; then B dies.
          return onB.stream(call).compose(post -> post.await(HttpClusteredSessionsTest::isProgress)
              .compose(progress -> onC.resume(progress.id()))
              .compose(resumed -> cluster.leases.release(b.instance.id())
                  .compose(v -> resumed.awaitResponse(call.getValue("id"))))
              .map(answered -> {
                test.verify(() -> assertEquals(-32603, answered.message().getJsonObject("error").getInteger("code"),
                    answered::toString));
                return answered;
              }));
        }))))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void whenTheOwnerShutsDownItsWaitingRequestsAreToldToRetry(Vertx vertx, VertxTestContext test) {
    start(vertx, 2).compose(nodes -> nodes.get(0).client().initialize(V11).compose(onA -> {
      ClusterNodes.Node a = nodes.get(0);
      StreamableHttpSession onB = nodes.get(1).session(onA);
      JsonObject call = onB.toolCall("gated", new JsonObject(), "tok");
      return onB.stream(call).compose(post -> a.tools.reachedGate.future()
          .compose(v -> a.http.shutdown(100))
          .compose(v -> post.awaitResponse(call.getValue("id")))
          .map(answered -> {
            test.verify(() -> {
              JsonObject error = answered.message().getJsonObject("error");
              assertEquals(-32603, error.getInteger("code"), answered::toString);
              assertTrue(error.getString("message").contains("send the request again"), error::toString);
            });
            return answered;
          }));
    })).onComplete(test.succeedingThenComplete());
  }
}
