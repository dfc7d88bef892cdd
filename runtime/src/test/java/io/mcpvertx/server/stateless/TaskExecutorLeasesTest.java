package io.mcpvertx.server.stateless;

import static io.mcpvertx.testing.StatelessTestClient.WITH_TASKS;
import static io.mcpvertx.server.stateless.TaskTools.call;
import static io.mcpvertx.server.stateless.TaskTools.text;
import static io.mcpvertx.testing.stores.McpStoresTesting.tasksIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.cluster.InstanceOptions;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolExecution;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.spi.leases.memory.InMemoryLeaseStore;
import io.mcpvertx.spi.tasks.memory.InMemoryTaskStore;
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
 * Executor leases: a task whose instance dies while its handler runs does not stay working. Two instances share a
 * task store and a lease store; instance A renews its lease too rarely to notice anything during a test, so
 * releasing its lease in the store stands for its death.
 */
@ExtendWith(VertxExtension.class)
class TaskExecutorLeasesTest {

  private static final Principal ALICE = new Principal("https://issuer.example", "alice", Set.of());

  private final HeldCalls held = new HeldCalls();
  private final InMemoryLeaseStore leases = InMemoryLeaseStore.create();
  private McpInstance instanceA;
  private StatelessTestClient a;
  private StatelessTestClient b;
  private McpServer serverA;

  @BeforeEach
  void setUp(Vertx vertx, VertxTestContext test) {
    InMemoryTaskStore store = InMemoryTaskStore.create(vertx);
    instanceA = McpInstance.create(vertx, leases, new InstanceOptions().setName("a").setLeaseTtlMs(120_000)
        .setRenewIntervalMs(30_000).setOrphanSweepIntervalMs(30_000));
    McpInstance instanceB = McpInstance.create(vertx, leases, new InstanceOptions().setName("b")
        .setLeaseTtlMs(3_000).setRenewIntervalMs(100).setOrphanSweepIntervalMs(50));
    serverA = server(vertx, store, instanceA, "A");
    a = StatelessTestClient.engine(vertx, serverA);
    b = StatelessTestClient.engine(vertx, server(vertx, store, instanceB, "B"));
    Future.all(instanceA.start(), instanceB.start()).onComplete(test.succeedingThenComplete());
  }

  /**
   * The task tools, and two that may run twice: {@code again_now} (on A it waits for the test; elsewhere it says
   * which server ran it) and {@code again_asks} (on A it waits; elsewhere it asks the client a question).
   */
  private McpServer server(Vertx vertx, InMemoryTaskStore store, McpInstance instance, String name) {
    ToolExecution again = ToolExecution.task(TaskSupport.OPTIONAL).withRerunOnFailover(true);
    return TaskTools.register(StatelessFixtures.register(McpServer.create(vertx, StatelessFixtures.options(),
        tasksIn(vertx, store), instance)), held)
        .tool(Tool.builder("again_now").execution(again).build(), (args, ctx) -> name.equals("A")
            ? held.hold(ctx).map(v -> ToolResult.text("run by A"))
            : Future.succeededFuture(ToolResult.text("run by " + name + " for " + args.getString("label")
                + ctx.principal().map(p -> " as " + p.subject()).orElse(""))))
        .tool(Tool.builder("again_asks").execution(again).build(), (args, ctx) -> name.equals("A")
            ? held.hold(ctx).map(v -> ToolResult.text("run by A"))
            : StatelessFixtures.name(ctx, "who", "Who is it for?").map(who -> ToolResult.text("for " + who)));
  }

  private static Future<String> start(StatelessTestClient client, String tool) {
    return client.request("tools/call", call(tool)).capabilities(WITH_TASKS.copy()).principal(ALICE).send()
        .map(x -> x.task().getString("taskId"));
  }

  @Test
  void theTaskOfADeadExecutorIsFailedByAnotherInstanceWithAClearMessage(VertxTestContext test) {
    start(a, "held_now").compose(taskId -> held.next()
            .compose(h -> leases.release(instanceA.id()).map(h))
            .compose(h -> b.awaitStatus(taskId, ALICE, "failed").compose(failed -> {
              test.verify(() -> {
                assertTrue(failed.getString("statusMessage")
                    .startsWith("The server instance running this task stopped before it finished"), failed::encode);
                // The extension's failed task carries its JSON-RPC error.
                assertEquals(-32603, failed.getJsonObject("error").getInteger("code"), failed::encode);
                assertEquals(failed.getString("statusMessage"), failed.getJsonObject("error").getString("message"));
              });
              // The dead executor comes back to life too late: its outcome loses against the settled task.
              return h.release().compose(v -> a.awaitStatus(taskId, ALICE, "failed"));
            })))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          assertEquals("failed", task.getString("status"));
          a.assertNoViolations();
          b.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aTaskThatFinishedLeavesNoOrphan(VertxTestContext test) {
    start(a, "held_now").compose(taskId -> held.next().compose(HeldCalls.Held::release)
            .compose(v -> a.awaitStatus(taskId, ALICE, "completed"))
            .compose(done -> leases.release(instanceA.id()))
            .compose(v -> leases.takeOrphans(100))
            .map(orphans -> {
              test.verify(() -> assertTrue(orphans.stream().noneMatch(o -> o.taskId().equals(taskId)),
                  orphans::toString));
              return taskId;
            })
            .compose(id -> b.getTask(id, ALICE)))
        .onComplete(test.succeeding(get -> test.verify(() -> {
          assertEquals("completed", get.complete().getString("status"));
          assertEquals("done ", text(get.complete().getJsonObject("result")));
          test.completeNow();
        })));
  }

  @Test
  void anInstanceWithoutALeaseRefusesToStartTasks(VertxTestContext test) {
    instanceA.close()
        .compose(v -> a.request("tools/call", call("held_now")).capabilities(WITH_TASKS.copy()).principal(ALICE)
            .send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          x.assertError(-32603);
          test.completeNow();
        })));
  }

  @Test
  void drainingGivesUpAtItsDeadlineWhileAHandlerStillRuns(Vertx vertx, VertxTestContext test) {
    // The deadline passes while the handler is held: drain gives up, leaving the task running.
    start(a, "held_now").compose(taskId -> held.next().compose(h -> serverA.drainTasks(200)
        .compose(v -> a.getTask(taskId, ALICE))
        .map(x -> {
          test.verify(() -> assertEquals("working", x.result().getString("status"), x.response()::encode));
          return h;
        })
    ).compose(h -> h.release().compose(v -> a.awaitStatus(taskId, ALICE, "completed")))
        .compose(done -> serverA.drainTasks(60_000)))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aTaskOfARerunnableToolIsRunAgainByAnotherInstance(VertxTestContext test) {
    a.request("tools/call", StatelessFixtures.call("again_now", new JsonObject().put("label", "y")))
        .capabilities(WITH_TASKS.copy()).principal(ALICE).send()
        .map(x -> x.task().getString("taskId"))
        .compose(taskId -> held.next().compose(h -> leases.release(instanceA.id()))
            .compose(v -> b.awaitStatus(taskId, ALICE, "completed")))
        .onComplete(test.succeeding(done -> test.verify(() -> {
          assertEquals("run by B for y as alice", text(done.getJsonObject("result")), done::encode);
          assertEquals("complete", done.getJsonObject("result").getString("resultType"));
          a.assertNoViolations();
          b.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aRerunThatAsksTheClientFailsWithAClearMessage(VertxTestContext test) {
    start(a, "again_asks").compose(taskId -> held.next().compose(h -> leases.release(instanceA.id()))
            .compose(v -> b.awaitStatus(taskId, ALICE, "failed")))
        .onComplete(test.succeeding(failed -> test.verify(() -> {
          String message = failed.getJsonObject("error").getString("message");
          assertTrue(message.contains("no client is connected to answer elicitation/create"), failed::encode);
          b.assertNoViolations();
          test.completeNow();
        })));
  }
}
