package io.mcpvertx.server.stateless;

import static io.mcpvertx.testing.StatelessTestClient.WITH_TASKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The bounds of tasks of the tasks extension: a task lives for its TTL and is then forgotten, its handler told to
 * stop; an owner may have only so many active tasks, and an instance run only so many handlers (-32005 beyond).
 * Each test makes its own server with the {@link TaskOptions} it needs. Waits end on events (the handler's
 * cancellation, a poll that sees the change), never on a deadline of their own.
 */
@ExtendWith(VertxExtension.class)
class TaskLimitsTest {

  private static final Principal ALICE = new Principal("https://issuer.example", "alice", Set.of());
  private static final Principal BOB = new Principal("https://issuer.example", "bob", Set.of());
  private static final long SHORT_TTL_MS = 300;

  private final HeldCalls held = new HeldCalls();
  private Vertx vertx;
  private StatelessTestClient client;

  private void serve(Vertx vertx, TaskOptions tasks) {
    this.vertx = vertx;
    McpServer server = StatelessFixtures.register(McpServer.create(vertx,
        StatelessFixtures.options().setTaskOptions(tasks)));
    client = StatelessTestClient.engine(vertx, TaskTools.register(server, held));
  }

  private Future<StatelessTestClient.Exchange> call(String tool, Principal principal) {
    return client.request("tools/call", TaskTools.call(tool)).capabilities(WITH_TASKS.copy()).principal(principal)
        .send();
  }

  private Future<String> start(String tool, Principal principal) {
    return call(tool, principal).map(x -> x.task().getString("taskId"));
  }

  private Future<StatelessTestClient.Exchange> tasks(String method, String taskId) {
    return client.request(method, new JsonObject().put("taskId", taskId).put("inputResponses", new JsonObject()))
        .capabilities(WITH_TASKS.copy()).send();
  }

  /** Polls tasks/get until the task is gone (-32602); yields that error. */
  private Future<JsonObject> awaitGone(String taskId) {
    return client.getTask(taskId, null).compose(x -> {
      if (x.isError()) {
        return Future.succeededFuture(x.assertError(-32602));
      }
      Promise<JsonObject> next = Promise.promise();
      vertx.setTimer(5, t -> awaitGone(taskId).onComplete(next));
      return next.future();
    });
  }

  private static void assertOverloaded(StatelessTestClient.Exchange x, String wording) {
    JsonObject error = x.assertError(-32005);
    assertTrue(error.getString("message").contains(wording), error::encode);
  }

  // ---- lifetime ----

  @Test
  void aTaskPastItsTtlIsForgottenAndItsHandlerToldToStop(Vertx vertx, VertxTestContext test) {
    serve(vertx, new TaskOptions().setDefaultTtlMs(SHORT_TTL_MS));
    call("held_now", null).compose(x -> {
      JsonObject created = x.task();
      assertEquals(SHORT_TTL_MS, created.getLong("ttlMs"));
      String taskId = created.getString("taskId");
      return held.next().compose(h -> h.cancelled().compose(reason -> {
        assertEquals("The task expired", reason);
        return awaitGone(taskId);
      }).compose(gone -> {
        assertEquals("Failed to retrieve task: Task not found", gone.getString("message"));
        return tasks("tasks/update", taskId);
      }).compose(update -> {
        update.assertError(-32602);
        return tasks("tasks/cancel", taskId);
      }).compose(cancel -> {
        cancel.assertError(-32602);
        // The handler finishes after all: there is nothing left to store it in.
        return h.release();
      }).compose(v -> client.getTask(taskId, null)));
    }).onComplete(test.succeeding(x -> test.verify(() -> {
      x.assertError(-32602);
      client.assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void aTaskWaitingForInputExpiresToo(Vertx vertx, VertxTestContext test) {
    serve(vertx, new TaskOptions().setDefaultTtlMs(SHORT_TTL_MS));
    start("two_steps", null).compose(taskId -> client.awaitStatus(taskId, null, "input_required")
        .compose(waiting -> awaitGone(taskId)))
        .onComplete(test.succeeding(gone -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  // ---- limits ----

  @Test
  void anOwnerAtItsLimitIsRefusedUntilOneOfItsTasksEnds(Vertx vertx, VertxTestContext test) {
    serve(vertx, new TaskOptions().setMaxActivePerOwner(2));
    start("held_now", ALICE).compose(first -> start("held_now", ALICE).compose(second -> call("held_now", ALICE))
        .compose(third -> {
          assertOverloaded(third, "Too many active tasks");
          // Others have limits of their own.
          return start("held_now", BOB).compose(bob -> start("held_now", null));
        })
        // Alice's first task finishes: she may start another.
        .compose(anonymous -> held.next().compose(HeldCalls.Held::release))
        .compose(v -> client.awaitStatus(first, ALICE, "completed"))
        .compose(done -> start("held_now", ALICE))
        .compose(fourth -> call("held_now", ALICE)))
        .compose(fifth -> {
          assertOverloaded(fifth, "Too many active tasks");
          return Future.succeededFuture();
        })
        .onComplete(test.succeeding(v -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aCancelledTaskFreesItsOwnersSlot(Vertx vertx, VertxTestContext test) {
    serve(vertx, new TaskOptions().setMaxActivePerOwner(1));
    start("held_now", ALICE).compose(first -> call("held_now", ALICE).compose(second -> {
      assertOverloaded(second, "Too many active tasks");
      return client.request("tasks/cancel", new JsonObject().put("taskId", first))
          .capabilities(WITH_TASKS.copy()).principal(ALICE).send();
    })).compose(ack -> start("held_now", ALICE))
        .onComplete(test.succeeding(taskId -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void anExpiredTaskFreesItsOwnersSlot(Vertx vertx, VertxTestContext test) {
    serve(vertx, new TaskOptions().setMaxActivePerOwner(1).setDefaultTtlMs(SHORT_TTL_MS));
    start("held_now", ALICE).compose(first -> call("held_now", ALICE).compose(second -> {
      assertOverloaded(second, "Too many active tasks");
      return held.next().compose(HeldCalls.Held::cancelled);
    })).compose(expired -> start("held_now", ALICE))
        .onComplete(test.succeeding(taskId -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aCallThatCannotBecomeATaskIsRefusedAndStopped(Vertx vertx, VertxTestContext test) {
    serve(vertx, new TaskOptions().setMaxActivePerOwner(1));
    // Alice is at her limit; her next call runs directly until it is due to become a task, which fails.
    start("held_now", ALICE).compose(first -> held.next()).compose(first -> {
      Future<StatelessTestClient.Exchange> call = call("held_later", ALICE);
      return held.next().compose(later -> call.compose(x -> {
        assertOverloaded(x, "Too many active tasks");
        return later.cancelled();
      }));
    }).onComplete(test.succeeding(reason -> test.verify(() -> {
      assertEquals("The call could not become a task", reason);
      client.assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void aCallWithAnOpenQuestionAtPromotionIsAskedAndLeavesNoTaskBehind(Vertx vertx, VertxTestContext test) {
    serve(vertx, new TaskOptions().setMaxActivePerOwner(1));
    // The handler goes on without an answer and is still running when the call is due to become a task; the
    // question must be asked first (as for any call with an open question), so no task is made, nor left to run
    // and hold the owner's only slot against the retry that brings the answer.
    JsonObject params = TaskTools.call("lenient_later");
    client.request("tools/call", params).capabilities(WITH_TASKS.copy()).principal(ALICE).send().compose(first -> {
      JsonObject asked = first.inputRequired();
      assertEquals(Set.of("who"), asked.getJsonObject("inputRequests").fieldNames());
      return held.next().compose(HeldCalls.Held::cancelled).compose(reason -> client.request("tools/call",
              params.copy().put("inputResponses", new JsonObject().put("who", StatelessFixtures.accept("name",
                  "Alice"))).put("requestState", asked.getString("requestState")))
          .capabilities(WITH_TASKS.copy()).principal(ALICE).send());
    }).compose(retry -> {
      String taskId = retry.task().getString("taskId");
      return held.next().compose(HeldCalls.Held::release).compose(v -> client.awaitStatus(taskId, ALICE,
          "completed"));
    }).onComplete(test.succeeding(task -> test.verify(() -> {
      assertEquals("Worked for Alice", TaskTools.text(task.getJsonObject("result")));
      client.assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void aCallWithAMalformedAnswerAtPromotionIsRefusedAndLeavesNoTaskBehind(Vertx vertx, VertxTestContext test) {
    serve(vertx, new TaskOptions().setMaxActivePerOwner(1));
    // As above, with an answer that is not an elicitation result: the call is refused (-32602) and no task
    // outlives it.
    JsonObject params = TaskTools.call("lenient_later");
    client.request("tools/call", params.copy().put("inputResponses", new JsonObject().put("who",
            new JsonObject().put("action", "maybe")))).capabilities(WITH_TASKS.copy()).principal(ALICE).send()
        .compose(first -> {
          assertTrue(first.assertError(-32602).getString("message").contains("who"), first.response()::encode);
          return held.next().compose(HeldCalls.Held::cancelled).compose(reason -> client.request("tools/call",
                  params.copy().put("inputResponses", new JsonObject().put("who", StatelessFixtures.accept("name",
                      "Alice"))))
              .capabilities(WITH_TASKS.copy()).principal(ALICE).send());
        })
        .compose(retry -> {
          String taskId = retry.task().getString("taskId");
          return held.next().compose(HeldCalls.Held::release).compose(v -> client.awaitStatus(taskId, ALICE,
              "completed"));
        })
        .onComplete(test.succeeding(task -> test.verify(() -> {
          assertEquals("Worked for Alice", TaskTools.text(task.getJsonObject("result")));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void anInstanceRunsOnlySoManyTaskHandlers(Vertx vertx, VertxTestContext test) {
    serve(vertx, new TaskOptions().setMaxLocalExecutions(1));
    start("held_now", ALICE).compose(first -> call("held_now", BOB).compose(second -> {
      assertOverloaded(second, "Too many tasks running on this server");
      return held.next().compose(HeldCalls.Held::release);
    }).compose(v -> client.awaitStatus(first, ALICE, "completed")))
        .compose(done -> start("held_now", BOB))
        .onComplete(test.succeeding(taskId -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }
}
