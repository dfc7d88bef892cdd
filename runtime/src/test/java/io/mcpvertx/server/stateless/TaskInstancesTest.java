package io.mcpvertx.server.stateless;

import static io.mcpvertx.testing.StatelessTestClient.WITH_TASKS;
import static io.mcpvertx.server.stateless.StatelessFixtures.accept;
import static io.mcpvertx.server.stateless.TaskTools.call;
import static io.mcpvertx.server.stateless.TaskTools.text;
import static io.mcpvertx.testing.stores.McpStoresTesting.tasksIn;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.spi.tasks.memory.InMemoryTaskStore;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two server instances sharing one task store, as behind a load balancer: a task runs where it was created, and
 * every other instance reads it, answers its questions, cancels it and streams its changes, through the store's
 * announcements. Owners and their limits hold across instances.
 */
@ExtendWith(VertxExtension.class)
class TaskInstancesTest {

  private static final Principal ALICE = new Principal("https://issuer.example", "alice", Set.of());
  private static final Principal BOB = new Principal("https://issuer.example", "bob", Set.of());

  private final HeldCalls held = new HeldCalls();
  /** The instance the tasks are created on. */
  private StatelessTestClient a;
  /** The other instance. */
  private StatelessTestClient b;

  @BeforeEach
  void setUp(Vertx vertx) {
    InMemoryTaskStore store = InMemoryTaskStore.create(vertx);
    TaskOptions tasks = new TaskOptions().setMaxActivePerOwner(1);
    a = StatelessTestClient.engine(vertx, instance(vertx, store, tasks));
    b = StatelessTestClient.engine(vertx, instance(vertx, store, tasks));
  }

  private McpServer instance(Vertx vertx, InMemoryTaskStore store, TaskOptions tasks) {
    return TaskTools.register(StatelessFixtures.register(McpServer.create(vertx,
        StatelessFixtures.options().setTaskOptions(tasks), tasksIn(vertx, store))), held);
  }

  private static Future<String> start(StatelessTestClient client, String tool, Principal principal) {
    return client.request("tools/call", call(tool)).capabilities(WITH_TASKS.copy()).principal(principal).send()
        .map(x -> x.task().getString("taskId"));
  }

  private static Future<StatelessTestClient.Exchange> tasks(StatelessTestClient client, String method, JsonObject params,
      Principal principal) {
    return client.request(method, params).capabilities(WITH_TASKS.copy()).principal(principal).send();
  }

  private void assertNoViolations() {
    a.assertNoViolations();
    b.assertNoViolations();
  }

  @Test
  void anotherInstanceReadsTheTaskAndItsAnswersReachTheHandler(VertxTestContext test) {
    start(a, "interview", ALICE).compose(taskId -> b.awaitTask(taskId, ALICE,
            t -> t.getString("status").equals("input_required") && t.getJsonObject("inputRequests").size() == 2)
        .compose(waiting -> tasks(b, "tasks/update", new JsonObject().put("taskId", taskId).put("inputResponses",
            new JsonObject().put("first", accept("name", "Ann")).put("second", accept("name", "teal"))), ALICE))
        .compose(ack -> held.next())
        .compose(h -> b.getTask(taskId, ALICE).compose(get -> {
          assertEquals("working", get.complete().getString("status"));
          return tasks(b, "tasks/get", new JsonObject().put("taskId", taskId), BOB);
        }).compose(bob -> {
          bob.assertError(-32602);
          return h.release();
        }))
        .compose(v -> b.awaitStatus(taskId, ALICE, "completed")))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          assertEquals("Answers: Ann, teal", text(task.getJsonObject("result")));
          assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aCancellationThroughAnotherInstanceStopsTheHandler(VertxTestContext test) {
    start(a, "held_now", ALICE).compose(taskId -> held.next().compose(h -> tasks(b, "tasks/cancel",
            new JsonObject().put("taskId", taskId), ALICE).compose(ack -> h.cancelled()))
        .compose(reason -> a.getTask(taskId, ALICE)))
        .onComplete(test.succeeding(get -> test.verify(() -> {
          assertEquals("cancelled", get.complete().getString("status"));
          assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void anotherInstanceStreamsTheTasksChanges(VertxTestContext test) {
    start(a, "work_ask_work", null).compose(taskId -> b.request("subscriptions/listen", new JsonObject()
            .put("notifications", new JsonObject().put("taskIds", new JsonArray().add(taskId))))
        .capabilities(WITH_TASKS.copy()).listen()
        .compose(stream -> stream.frame(1)
            .compose(first -> held.next().compose(HeldCalls.Held::release))
            .compose(v -> stream.frame(f -> "input_required".equals(f.getJsonObject("params").getString("status"))))
            .compose(waiting -> tasks(b, "tasks/update", new JsonObject().put("taskId", taskId)
                .put("inputResponses", new JsonObject().put("who", accept("name", "Lee"))), null))
            .compose(ack -> held.next().compose(HeldCalls.Held::release))
            .compose(v -> stream.frame(f -> "completed".equals(f.getJsonObject("params").getString("status"))))
            .compose(done -> stream.frames().map(frames -> {
              assertEquals("Finished for Lee", text(done.getJsonObject("params").getJsonObject("result")));
              List<String> statuses = frames.subList(1, frames.size()).stream()
                  .map(f -> f.getJsonObject("params").getString("status")).distinct().toList();
              assertEquals(List.of("working", "input_required", "completed"), statuses);
              return null;
            }))))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void anOwnersLimitHoldsAcrossInstances(VertxTestContext test) {
    start(a, "held_now", ALICE).compose(first -> b.request("tools/call", call("held_now"))
        .capabilities(WITH_TASKS.copy()).principal(ALICE).send())
        .onComplete(test.succeeding(second -> test.verify(() -> {
          second.assertError(-32005);
          assertNoViolations();
          test.completeNow();
        })));
  }
}
