package io.mcpvertx.server.stateless;

import static io.mcpvertx.testing.StatelessTestClient.WITH_TASKS;
import static io.mcpvertx.server.stateless.StatelessFixtures.accept;
import static io.mcpvertx.server.stateless.TaskTools.call;
import static io.mcpvertx.server.stateless.TaskTools.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.Principal;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Who may see a task of the tasks extension: the principal that created it, and nobody else; to anyone else it
 * does not exist (-32602, worded as for an unknown id). Without authorization a task belongs to no one in
 * particular and its id is what guards it. A task created over a 2025-11-25 session is the same task in the same
 * engine: its principal reads and cancels it through the extension too.
 */
@ExtendWith(VertxExtension.class)
class TaskOwnershipTest {

  private static final Principal ALICE = new Principal("https://issuer.example", "alice", Set.of());
  private static final Principal BOB = new Principal("https://issuer.example", "bob", Set.of());
  /** Alice's subject at another issuer: someone else. */
  private static final Principal OTHER_ALICE = new Principal("https://other.example", "alice", Set.of());
  private static final String NOT_FOUND = "Failed to retrieve task: Task not found";

  private McpServer server;
  private StatelessTestClient client;
  private HeldCalls held;

  @BeforeEach
  void setUp(Vertx vertx) {
    held = new HeldCalls();
    server = TaskTools.register(StatelessFixtures.server(vertx), held);
    client = StatelessTestClient.engine(vertx, server);
  }

  private Future<String> start(String tool, Principal principal) {
    return client.request("tools/call", call(tool)).capabilities(WITH_TASKS.copy()).principal(principal).send()
        .map(x -> x.task().getString("taskId"));
  }

  private Future<StatelessTestClient.Exchange> tasks(String method, JsonObject params, Principal principal) {
    return client.request(method, params).capabilities(WITH_TASKS.copy()).principal(principal).send();
  }

  /** get, update and cancel of {@code taskId} as {@code principal} all say the task does not exist. */
  private Future<Void> assertHidden(String taskId, Principal principal) {
    JsonObject id = new JsonObject().put("taskId", taskId);
    return tasks("tasks/get", id, principal).compose(get -> {
      assertEquals(NOT_FOUND, get.assertError(-32602).getString("message"));
      return tasks("tasks/update", id.copy().put("inputResponses", new JsonObject()
          .put("k", accept("name", "intruder"))), principal);
    }).compose(update -> {
      assertEquals(NOT_FOUND, update.assertError(-32602).getString("message"));
      return tasks("tasks/cancel", id, principal);
    }).map(cancel -> {
      assertEquals(NOT_FOUND, cancel.assertError(-32602).getString("message"));
      return null;
    });
  }

  @Test
  void aPrincipalsTaskDoesNotExistForAnyoneElse(VertxTestContext test) {
    start("held_now", ALICE).compose(taskId -> assertHidden(taskId, BOB)
        .compose(v -> assertHidden(taskId, OTHER_ALICE))
        .compose(v -> assertHidden(taskId, null))
        // the refused cancels changed nothing; Alice herself sees and finishes her task
        .compose(v -> client.getTask(taskId, ALICE))
        .compose(get -> {
          assertEquals("working", get.complete().getString("status"));
          return held.next().compose(HeldCalls.Held::release);
        })
        .compose(v -> client.awaitStatus(taskId, ALICE, "completed"))
        // a finished task stays hers
        .compose(done -> assertHidden(taskId, BOB)))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void someoneElsesQuestionsCannotBeAnswered(VertxTestContext test) {
    start("two_steps", ALICE).compose(taskId -> client.awaitStatus(taskId, ALICE, "input_required")
        .compose(task -> assertHidden(taskId, BOB))
        .compose(v -> client.getTask(taskId, ALICE))
        .map(get -> {
          JsonObject task = get.complete();
          assertEquals("input_required", task.getString("status"));
          assertEquals(Set.of("step1"), task.getJsonObject("inputRequests").fieldNames());
          return null;
        }))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void anAnonymousTaskIsReachedByItsIdAloneButNotByAPrincipal(VertxTestContext test) {
    start("held_now", null).compose(taskId -> client.getTask(taskId, null).compose(get -> {
      assertEquals("working", get.complete().getString("status"));
      return assertHidden(taskId, ALICE);
    }).compose(v -> tasks("tasks/cancel", new JsonObject().put("taskId", taskId), null))
        .compose(ack -> client.awaitStatus(taskId, null, "cancelled")))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  // ---- one engine for both wires ----

  private static JsonObject legacyTaskCall(String tool) {
    return call(tool).put("task", new JsonObject().put("ttl", 60_000));
  }

  @Test
  void aTaskCreatedOverA2025SessionIsReadThroughTheExtensionByItsPrincipal(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, server, ALICE).compose(session -> session.initialize("2025-11-25")
        .compose(init -> session.call("tools/call", legacyTaskCall("held_now")))
        .compose(created -> {
          String taskId = created.getJsonObject("task").getString("taskId");
          return client.getTask(taskId, ALICE).compose(get -> {
            JsonObject task = get.complete();
            assertEquals("working", task.getString("status"));
            assertEquals(60_000, task.getLong("ttlMs"));
            return assertHidden(taskId, BOB);
          }).compose(v -> held.next().compose(HeldCalls.Held::release))
              .compose(v -> client.awaitStatus(taskId, ALICE, "completed"));
        }))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          assertEquals("done ", text(task.getJsonObject("result")));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aTaskCreatedOverA2025SessionIsCancelledThroughTheExtension(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, server, ALICE).compose(session -> session.initialize("2025-11-25")
        .compose(init -> session.call("tools/call", legacyTaskCall("held_now")))
        .compose(created -> {
          String taskId = created.getJsonObject("task").getString("taskId");
          return held.next().compose(h -> tasks("tasks/cancel", new JsonObject().put("taskId", taskId), ALICE)
              .compose(ack -> h.cancelled()))
              .compose(reason -> session.call("tasks/get", new JsonObject().put("taskId", taskId)));
        }))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          assertEquals("cancelled", task.getString("status"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aToolErrorOfA2025TaskReadsAsCompletedThroughTheExtension(Vertx vertx, VertxTestContext test) {
    // 2025-11-25 stores a tool result with isError as a failed task; the extension calls that completed work.
    McpTestClient.inProcess(vertx, server, ALICE).compose(session -> session.initialize("2025-11-25")
        .compose(init -> session.call("tools/call", legacyTaskCall("tool_error")))
        .compose(created -> {
          String taskId = created.getJsonObject("task").getString("taskId");
          return held.next().compose(HeldCalls.Held::release)
              .compose(v -> client.awaitTask(taskId, ALICE, t -> !t.getString("status").equals("working")))
              .compose(viaExtension -> session.call("tasks/get", new JsonObject().put("taskId", taskId))
                  .map(viaSession -> {
                    assertEquals("failed", viaSession.getString("status"));
                    return viaExtension;
                  }));
        }))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          assertEquals("completed", task.getString("status"));
          assertTrue(task.getJsonObject("result").getBoolean("isError"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }
}
