package io.mcpvertx.server.tasks;

import static io.mcpvertx.server.tasks.TaskFixtures.V;
import static io.mcpvertx.server.tasks.TaskFixtures.assertCallToolResult;
import static io.mcpvertx.server.tasks.TaskFixtures.assertError;
import static io.mcpvertx.server.tasks.TaskFixtures.assertNoViolations;
import static io.mcpvertx.server.tasks.TaskFixtures.assertTask;
import static io.mcpvertx.server.tasks.TaskFixtures.awaitStatus;
import static io.mcpvertx.server.tasks.TaskFixtures.byId;
import static io.mcpvertx.server.tasks.TaskFixtures.create;
import static io.mcpvertx.server.tasks.TaskFixtures.get;
import static io.mcpvertx.server.tasks.TaskFixtures.relatedTaskId;
import static io.mcpvertx.server.tasks.TaskFixtures.taskCall;
import static io.mcpvertx.testing.stores.McpStoresTesting.tasksIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.cluster.InstanceOptions;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.server.tasks.TaskFixtures.Jobs;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolExecution;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.spi.leases.memory.InMemoryLeaseStore;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.memory.InMemoryTaskStore;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.SpecSchemas;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Executor leases on the 2025-11-25 wire: two instances A and B share a task store and a lease store. A task whose
 * instance dies while its handler runs is failed by the other instance with a clear status message (and tasks/result
 * answers with that error), or run again there when its tool declares {@link ToolExecution#rerunOnFailover()}.
 *
 * <p>Instance A renews its lease too rarely to notice anything during a test, so releasing its lease in the store
 * stands for its death: A's handlers go on running, as a paused or cut-off process's would, and their late outcome
 * must lose. Instance B sweeps often.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
class TaskFailoverTest {

  private static final Principal ALICE = new Principal("https://issuer.example", "alice", Set.of());
  private static final String DEAD = "The server instance running this task stopped before it finished";

  private final InMemoryLeaseStore leases = InMemoryLeaseStore.create();
  private final Jobs jobsA = new Jobs();
  private final Jobs jobsB = new Jobs();
  private InMemoryTaskStore store;
  private McpInstance instanceA;
  private McpInstance instanceB;

  @BeforeEach
  void setUp(Vertx vertx, VertxTestContext test) {
    store = InMemoryTaskStore.create(vertx);
    instanceA = McpInstance.create(vertx, leases, new InstanceOptions().setName("a").setLeaseTtlMs(120_000)
        .setRenewIntervalMs(30_000).setOrphanSweepIntervalMs(30_000));
    instanceB = McpInstance.create(vertx, leases, new InstanceOptions().setName("b").setLeaseTtlMs(3_000)
        .setRenewIntervalMs(100).setOrphanSweepIntervalMs(50));
    Future.all(instanceA.start(), instanceB.start()).onComplete(test.succeedingThenComplete());
  }

  /**
   * A server of the deployment: {@code job} (waits for the test) and {@code again}, a tool that may run twice and
   * says which server ran it; on A it waits for the test, on B it answers at once.
   */
  private McpServer server(Vertx vertx, McpInstance instance, Jobs jobs, String name) {
    ToolExecution again = ToolExecution.task(TaskSupport.OPTIONAL).withRerunOnFailover(true);
    McpServer server = jobs.register(McpServer.create(vertx, new McpServerOptions(), tasksIn(vertx, store), instance));
    return server.tool(Tool.builder("again").execution(again).build(), (args, ctx) -> name.equals("A")
        ? Promise.<ToolResult>promise().future()
        : Future.succeededFuture(ToolResult.text("run by " + name + " for " + args.getString("label")
            + (ctx.principal().map(p -> " as " + p.subject()).orElse("")))));
  }

  private static Future<McpTestClient> open(Vertx vertx, McpServer server) {
    return TaskFixtures.open(vertx, server, ALICE);
  }

  /** MUST (2025-11-25): tasks/get shows failed with a statusMessage; tasks/result answers with the error. */
  @Test
  void failsTheTaskOfADeadExecutorWithAClearMessage(Vertx vertx, VertxTestContext test) {
    McpServer a = server(vertx, instanceA, jobsA, "A");
    McpServer b = server(vertx, instanceB, jobsB, "B");
    Future.all(open(vertx, a), open(vertx, b)).compose(clients -> {
      McpTestClient onA = clients.resultAt(0);
      McpTestClient onB = clients.resultAt(1);
      return create(onA, taskCall("job")).compose(task -> jobsA.job(0).compose(job -> {
        String id = task.getString("taskId");
        String deadId = instanceA.id();
        return leases.release(deadId)
            .compose(v -> awaitStatus(onB, id, "failed"))
            .compose(failed -> {
              assertTask(failed);
              assertTrue(failed.getString("statusMessage").startsWith(DEAD), failed::encode);
              assertTrue(failed.getString("statusMessage").contains(deadId), failed::encode);
              assertTrue(SpecSchemas.violations(V, "GetTaskResult", failed).isEmpty(), failed::encode);
              return onB.request("tasks/result", byId(id));
            })
            .compose(response -> {
              JsonObject error = assertError(response, -32603);
              assertTrue(error.getString("message").startsWith(DEAD), error::encode);
              // The dead executor comes back to life too late: its outcome loses against the settled task.
              job.complete("too late");
              return onA.call("ping", null).compose(pong -> get(onA, id));
            })
            .map(task2 -> {
              assertEquals("failed", task2.getString("status"));
              assertTrue(task2.getString("statusMessage").startsWith(DEAD), task2::encode);
              assertNoViolations(onA);
              assertNoViolations(onB);
              return task2;
            });
      }));
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void runsATaskOfARerunnableToolAgainOnAnotherInstance(Vertx vertx, VertxTestContext test) {
    McpServer a = server(vertx, instanceA, jobsA, "A");
    McpServer b = server(vertx, instanceB, jobsB, "B");
    Future.all(open(vertx, a), open(vertx, b)).compose(clients -> {
      McpTestClient onA = clients.resultAt(0);
      McpTestClient onB = clients.resultAt(1);
      JsonObject call = taskCall("again").put("arguments", new JsonObject().put("label", "x"));
      return create(onA, call).compose(task -> {
        String id = task.getString("taskId");
        return leases.release(instanceA.id())
            .compose(v -> awaitStatus(onB, id, "completed"))
            .compose(done -> onB.call("tasks/result", byId(id)))
            .map(result -> {
              assertCallToolResult(result);
              assertEquals("run by B for x as alice",
                  result.getJsonArray("content").getJsonObject(0).getString("text"));
              assertEquals(id, relatedTaskId(result));
              assertNoViolations(onA);
              assertNoViolations(onB);
              return result;
            });
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void failsATaskOfARerunnableToolThatTheSurvivorDoesNotServe(Vertx vertx, VertxTestContext test) {
    McpServer a = server(vertx, instanceA, jobsA, "A");
    // B serves "again" as an ordinary tool: it must not run it twice.
    McpServer b = jobsB.register(McpServer.create(vertx, new McpServerOptions(), tasksIn(vertx, store), instanceB))
        .tool(Tool.builder("again").taskSupport(TaskSupport.OPTIONAL).build(),
            (args, ctx) -> Future.succeededFuture(ToolResult.text("must not run")));
    Future.all(open(vertx, a), open(vertx, b)).compose(clients -> {
      McpTestClient onA = clients.resultAt(0);
      McpTestClient onB = clients.resultAt(1);
      return create(onA, taskCall("again")).compose(task -> leases.release(instanceA.id())
          .compose(v -> awaitStatus(onB, task.getString("taskId"), "failed"))
          .map(failed -> {
            assertTrue(failed.getString("statusMessage").startsWith(DEAD), failed::encode);
            return failed;
          }));
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void leavesNoOrphanBehindATaskThatFinished(Vertx vertx, VertxTestContext test) {
    McpServer a = server(vertx, instanceA, jobsA, "A");
    open(vertx, a).compose(onA -> create(onA, taskCall("job")).compose(task -> jobsA.job(0).compose(job -> {
      job.complete("done");
      return awaitStatus(onA, task.getString("taskId"), "completed");
    }))).compose(done -> a.drainTasks(60_000).map(done))
        .compose(done -> leases.release(instanceA.id()).compose(v -> leases.takeOrphans(100)))
        .onComplete(test.succeeding(orphans -> test.verify(() -> {
          assertEquals(List.of(), orphans);
          test.completeNow();
        })));
  }

  /**
   * An instance that learns it lost its lease stops the handlers it ran under it: the task is someone else's to
   * settle now, and what the handler finishes with afterwards is not stored.
   */
  @Test
  void cancelsTheHandlersOfALostLease(Vertx vertx, VertxTestContext test) {
    McpInstance watchful = McpInstance.create(vertx, leases, new InstanceOptions().setName("w").setLeaseTtlMs(3_000)
        .setRenewIntervalMs(20).setOrphanSweepIntervalMs(30_000));
    McpServer w = server(vertx, watchful, jobsA, "A");
    watchful.start().compose(started -> open(vertx, w)).compose(onW ->
        create(onW, taskCall("job")).compose(task -> jobsA.job(0).compose(job -> {
          String id = task.getString("taskId");
          String lostId = watchful.id();
          return leases.release(lostId)
              .compose(v -> job.cancelled().future())
              .compose(reason -> {
                assertTrue(reason.contains("lost its lease"), reason);
                job.complete("after the loss");
                return onW.call("ping", null).compose(pong -> get(onW, id));
              })
              .compose(seen -> {
                // Nobody settled it yet, and the handler's late outcome was not stored.
                assertEquals("working", seen.getString("status"), seen::encode);
                assertNotEquals(lostId, watchful.id(), "a lost lease is registered again under a new id");
                // Only now does a surviving instance look for orphans.
                McpServer b = server(vertx, instanceB, jobsB, "B");
                return open(vertx, b).compose(onB -> awaitStatus(onB, id, "failed"));
              })
              .map(failed -> {
                assertTrue(failed.getString("statusMessage").contains(lostId), failed::encode);
                assertNoViolations(onW);
                return failed;
              });
        })))
        .eventually(() -> watchful.close()).onComplete(test.succeedingThenComplete());
  }

  /**
   * The arguments of a call are kept with its task only where they may be needed: for a tool that may run again, on
   * a server that is an instance of a deployment.
   */
  @Test
  void keepsTheArgumentsOfACallOnlyForARerunOnAnotherInstance(Vertx vertx, VertxTestContext test) {
    McpServer clustered = server(vertx, instanceB, jobsB, "B");
    McpServer alone = McpServer.create(vertx, new McpServerOptions(), tasksIn(vertx, store))
        .tool(Tool.builder("again").execution(ToolExecution.task(TaskSupport.OPTIONAL).withRerunOnFailover(true))
            .build(), (args, ctx) -> Future.succeededFuture(ToolResult.text("alone")));
    JsonObject call = taskCall("again").put("arguments", new JsonObject().put("label", "secret"));
    Future.all(open(vertx, clustered).compose(client -> create(client, call.copy())),
            open(vertx, alone).compose(client -> create(client, call.copy())),
            open(vertx, clustered).compose(client -> create(client, taskCall("job"))))
        .compose(created -> Future.all(List.of(store.get(created.<JsonObject>resultAt(0).getString("taskId")),
            store.get(created.<JsonObject>resultAt(1).getString("taskId")),
            store.get(created.<JsonObject>resultAt(2).getString("taskId")))))
        .onComplete(test.succeeding(tasks -> test.verify(() -> {
          TaskRecord rerunnable = tasks.resultAt(0);
          TaskRecord standalone = tasks.resultAt(1);
          TaskRecord ordinary = tasks.resultAt(2);
          assertEquals(new JsonObject().put("label", "secret"), rerunnable.metadata().getJsonObject("arguments"));
          assertEquals(ALICE, Principal.fromJson(rerunnable.metadata().getJsonObject("principal")));
          assertNull(standalone.metadata().getValue("arguments"), standalone.metadata()::encode);
          assertNull(ordinary.metadata().getValue("arguments"), ordinary.metadata()::encode);
          assertTrue(alone.instance().isEmpty());
          test.completeNow();
        })));
  }
}
