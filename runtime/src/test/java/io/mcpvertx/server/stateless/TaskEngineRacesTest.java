package io.mcpvertx.server.stateless;

import static io.mcpvertx.testing.StatelessTestClient.WITH_TASKS;
import static io.mcpvertx.server.stateless.StatelessFixtures.accept;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The shared task engine under concurrent requests: things that race (a handler finishing while its task is
 * cancelled, answers arriving while it is cancelled, callers starting tasks at an owner's limit) settle on one
 * outcome, terminal statuses never change, and nothing leaks. Clients here sit on different event loops, so the
 * racing requests really run at the same time; each race runs many times.
 *
 * <p>The server allows one active task per owner and one running handler per instance, unless a test says
 * otherwise: a task whose count or registration leaked would make the next iteration's call fail with -32005.
 */
@ExtendWith(VertxExtension.class)
class TaskEngineRacesTest {

  private static final Principal ALICE = new Principal("https://issuer.example", "alice", Set.of());
  private static final int ITERATIONS = 200;

  private final HeldCalls held = new HeldCalls();
  private McpServer server;
  /** Several clients, each on its own event-loop context. */
  private final List<StatelessTestClient> clients = new ArrayList<>();

  @BeforeEach
  void setUp(Vertx vertx) {
    serve(vertx, new TaskOptions().setMaxActivePerOwner(1).setMaxLocalExecutions(1));
  }

  private void serve(Vertx vertx, TaskOptions tasks) {
    server = TaskTools.register(StatelessFixtures.register(McpServer.create(vertx,
        StatelessFixtures.options().setTaskOptions(tasks))), held);
    clients.clear();
    for (int i = 0; i < 4; i++) {
      clients.add(StatelessTestClient.engine(vertx, server));
    }
  }

  private StatelessTestClient client(int index) {
    return clients.get(index % clients.size());
  }

  private Future<StatelessTestClient.Exchange> call(StatelessTestClient client, String tool) {
    return client.request("tools/call", TaskTools.call(tool)).capabilities(WITH_TASKS.copy()).principal(ALICE)
        .send();
  }

  private Future<StatelessTestClient.Exchange> tasks(StatelessTestClient client, String method, JsonObject params) {
    return client.request(method, params).capabilities(WITH_TASKS.copy()).principal(ALICE).send();
  }

  private Future<JsonObject> awaitTerminal(String taskId) {
    return client(0).awaitTask(taskId, ALICE,
        task -> !Set.of("working", "input_required").contains(task.getString("status")));
  }

  /** Runs {@code body} for 0 … n-1, one after the other. */
  private static Future<Void> repeat(int n, IntFunction<Future<?>> body) {
    Future<Void> chain = Future.succeededFuture();
    for (int i = 0; i < n; i++) {
      int iteration = i;
      chain = chain.compose(v -> body.apply(iteration).mapEmpty());
    }
    return chain;
  }

  private void assertNoViolations() {
    clients.forEach(StatelessTestClient::assertNoViolations);
  }

  @Test
  void aHandlerFinishingWhileItsTaskIsCancelledSettlesOnce(VertxTestContext test) {
    Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
    repeat(ITERATIONS, i -> call(client(i), "held_now").compose(x -> {
      String taskId = x.task().getString("taskId");
      JsonObject id = new JsonObject().put("taskId", taskId);
      // One side or the other is held back a few turns of its event loop, a different number each time.
      int shift = i % 41 - 20;
      return held.next().compose(h -> Future.all(
              client(i + 1).turns(Math.max(0, -shift)).compose(v -> tasks(client(i + 1), "tasks/cancel", id)),
              h.releaseAfter(Math.max(0, shift))))
          .compose(both -> awaitTerminal(taskId))
          .compose(settled -> {
            String status = settled.getString("status");
            outcomes.computeIfAbsent(status, k -> new AtomicInteger()).incrementAndGet();
            if (status.equals("completed")) {
              assertEquals("done ", TaskTools.text(settled.getJsonObject("result")));
            } else {
              assertEquals("cancelled", status, settled::encode);
              assertFalse(settled.containsKey("result") || settled.containsKey("error"), settled::encode);
            }
            // Settled for good: cancelling again changes nothing.
            return tasks(client(i + 2), "tasks/cancel", id).compose(ack -> client(i + 3).getTask(taskId, ALICE))
                .map(again -> {
                  assertEquals(settled, again.complete());
                  return null;
                });
          });
    })).onComplete(test.succeeding(v -> test.verify(() -> {
      assertEquals(ITERATIONS, outcomes.values().stream().mapToInt(AtomicInteger::get).sum(), outcomes::toString);
      assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void anAnswerArrivingWhileTheTaskIsCancelledLeavesItCancelled(VertxTestContext test) {
    repeat(ITERATIONS / 2, i -> call(client(i), "two_steps").compose(x -> {
      String taskId = x.task().getString("taskId");
      JsonObject id = new JsonObject().put("taskId", taskId);
      return client(i).awaitStatus(taskId, ALICE, "input_required")
          .compose(waiting -> Future.all(
              tasks(client(i + 1), "tasks/update", id.copy().put("inputResponses",
                  new JsonObject().put("step1", accept("name", "racer")))),
              tasks(client(i + 2), "tasks/cancel", id)))
          .compose(both -> {
            // Whichever came first, the cancellation applies: the task is active until it does.
            assertTrue(both.<StatelessTestClient.Exchange>resultAt(0).complete().containsKey("resultType"));
            both.<StatelessTestClient.Exchange>resultAt(1).complete();
            return awaitTerminal(taskId);
          })
          .map(settled -> {
            assertEquals("cancelled", settled.getString("status"), settled::encode);
            assertFalse(settled.containsKey("inputRequests"), settled::encode);
            return null;
          });
    })).onComplete(test.succeeding(v -> test.verify(() -> {
      assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void answersFromSeveralClientsAtOnceAreAllDelivered(Vertx vertx, VertxTestContext test) {
    repeat(ITERATIONS / 4, i -> call(client(i), "interview").compose(x -> {
      String taskId = x.task().getString("taskId");
      JsonObject id = new JsonObject().put("taskId", taskId);
      return client(i).awaitTask(taskId, ALICE, t -> t.getString("status").equals("input_required")
              && t.getJsonObject("inputRequests").size() == 2)
          .compose(waiting -> Future.all(
              tasks(client(i + 1), "tasks/update", id.copy().put("inputResponses",
                  new JsonObject().put("first", accept("name", "Ann" + i)))),
              tasks(client(i + 2), "tasks/update", id.copy().put("inputResponses",
                  new JsonObject().put("second", accept("name", "blue" + i))))))
          .compose(both -> held.next().compose(HeldCalls.Held::release))
          .compose(v -> awaitTerminal(taskId))
          .map(settled -> {
            assertEquals("completed", settled.getString("status"), settled::encode);
            assertEquals("Answers: Ann" + i + ", blue" + i, TaskTools.text(settled.getJsonObject("result")));
            return null;
          });
    })).onComplete(test.succeeding(v -> test.verify(() -> {
      assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void callersRacingForAnInstancesLastHandlersGetExactlyThatMany(Vertx vertx, VertxTestContext test) {
    int limit = 3;
    int callers = 24;
    serve(vertx, new TaskOptions().setMaxLocalExecutions(limit));
    repeat(10, round -> {
      List<Future<StatelessTestClient.Exchange>> calls = new ArrayList<>();
      for (int i = 0; i < callers; i++) {
        // Each caller its own owner: only the instance's limit applies.
        calls.add(client(i).request("tools/call", TaskTools.call("held_now")).capabilities(WITH_TASKS.copy())
            .principal(new Principal("https://issuer.example", "caller-" + round + "-" + i, Set.of())).send());
      }
      return Future.all(calls).compose(all -> {
        List<JsonObject> accepted = new ArrayList<>();
        for (Future<StatelessTestClient.Exchange> call : calls) {
          StatelessTestClient.Exchange x = call.result();
          if (x.isError()) {
            x.assertError(-32005);
          } else {
            accepted.add(x.task());
          }
        }
        assertEquals(limit, accepted.size(), "accepted " + accepted.size());
        // Let them finish, to free the handlers for the next round.
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < accepted.size(); i++) {
          done.add(held.next().compose(HeldCalls.Held::release));
        }
        return Future.all(done).compose(v -> {
          List<Future<?>> settled = new ArrayList<>();
          for (int i = 0; i < calls.size(); i++) {
            StatelessTestClient.Exchange x = calls.get(i).result();
            if (!x.isError()) {
              settled.add(client(0).awaitStatus(x.task().getString("taskId"), new Principal("https://issuer.example",
                  "caller-" + round + "-" + i, Set.of()), "completed"));
            }
          }
          return Future.all(settled);
        });
      });
    }).onComplete(test.succeeding(v -> test.verify(() -> {
      assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void callersRacingForAnOwnersLastSlotsGetExactlyThatMany(Vertx vertx, VertxTestContext test) {
    int limit = 5;
    int callers = 24;
    serve(vertx, new TaskOptions().setMaxActivePerOwner(limit));
    repeat(10, round -> {
      List<Future<StatelessTestClient.Exchange>> calls = new ArrayList<>();
      for (int i = 0; i < callers; i++) {
        calls.add(call(client(i), "held_now"));
      }
      return Future.all(calls).compose(all -> {
        List<String> accepted = new ArrayList<>();
        for (Future<StatelessTestClient.Exchange> call : calls) {
          StatelessTestClient.Exchange x = call.result();
          if (x.isError()) {
            x.assertError(-32005);
          } else {
            accepted.add(x.task().getString("taskId"));
          }
        }
        assertEquals(limit, accepted.size(), "accepted " + accepted);
        // Cancel them all, each from another client, to free the slots for the next round.
        List<Future<?>> cancels = new ArrayList<>();
        for (int i = 0; i < accepted.size(); i++) {
          cancels.add(tasks(client(i), "tasks/cancel", new JsonObject().put("taskId", accepted.get(i)))
              .compose(ack -> held.next()));
        }
        return Future.all(cancels);
      });
    }).onComplete(test.succeeding(v -> test.verify(() -> {
      assertNoViolations();
      test.completeNow();
    })));
  }
}
