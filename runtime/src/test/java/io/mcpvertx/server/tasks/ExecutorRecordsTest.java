package io.mcpvertx.server.tasks;

import static io.mcpvertx.server.tasks.TaskFixtures.assertError;
import static io.mcpvertx.server.tasks.TaskFixtures.assertNoViolations;
import static io.mcpvertx.server.tasks.TaskFixtures.awaitStatus;
import static io.mcpvertx.server.tasks.TaskFixtures.create;
import static io.mcpvertx.server.tasks.TaskFixtures.taskCall;
import static io.mcpvertx.testing.stores.McpStoresTesting.tasksIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.server.cluster.InstanceOptions;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.server.tasks.TaskFixtures.Jobs;
import io.mcpvertx.spi.leases.LeaseStore;
import io.mcpvertx.spi.leases.memory.InMemoryLeaseStore;
import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskIds;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.memory.InMemoryTaskStore;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a server records in the lease store about the tasks it runs, and when: executions are recorded before a
 * task exists (and a call whose execution cannot be recorded gets no task), a server without an instance records
 * nothing, draining waits for outcomes to be stored, and a sweeper settles a dead instance's orphans a bounded
 * batch at a time.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 15, timeUnit = TimeUnit.SECONDS)
class ExecutorRecordsTest {

  private static final Principal ALICE = new Principal("https://issuer.example", "alice", Set.of());

  private final RecordingLeaseStore leases = new RecordingLeaseStore(InMemoryLeaseStore.create());
  private final Jobs jobs = new Jobs();

  private McpInstance instance(Vertx vertx, String name, long sweepMs) {
    return McpInstance.create(vertx, leases, new InstanceOptions().setName(name).setLeaseTtlMs(120_000)
        .setRenewIntervalMs(30_000).setOrphanSweepIntervalMs(sweepMs));
  }

  /**
   * A lease store that cannot record an execution (an outage of Redis, say) refuses the call with the retryable
   * -32603 the task store's own outage gives; no task exists afterwards, and the execution slot is given back.
   */
  @Test
  void refusesATaskWhoseExecutorCannotBeRecorded(Vertx vertx, VertxTestContext test) {
    InMemoryTaskStore store = InMemoryTaskStore.create(vertx);
    McpInstance instance = instance(vertx, "a", 30_000);
    McpServer server = jobs.register(McpServer.create(vertx,
        new McpServerOptions().setTaskOptions(new TaskOptions().setMaxLocalExecutions(1)), tasksIn(vertx, store),
        instance));
    leases.refuseExecuting = true;
    instance.start().compose(v -> TaskFixtures.open(vertx, server, ALICE)).compose(client ->
        client.request("tools/call", taskCall("job")).compose(response -> {
          test.verify(() -> {
            JsonObject error = assertError(response, -32603);
            assertTrue(error.getString("message").contains("try again"), error::encode);
            assertEquals(0, jobs.calls(), "the handler must not run without a task");
          });
          return client.call("tasks/list", null);
        }).compose(list -> {
          test.verify(() -> assertTrue(list.getJsonArray("tasks").isEmpty(), list::encode));
          leases.refuseExecuting = false;
          // maxLocalExecutions is 1: this succeeds only if the refused call gave its slot back.
          return create(client, taskCall("job"));
        }).compose(task -> jobs.job(0).compose(job -> {
          test.verify(() -> assertTrue(leases.executing(task.getString("taskId")), leases.calls::toString));
          job.complete("done");
          return awaitStatus(client, task.getString("taskId"), "completed");
        })).map(done -> {
          assertNoViolations(client);
          return done;
        }))
        .eventually(instance::close).onComplete(test.succeedingThenComplete());
  }

  /**
   * A server that stands alone shares the task store with an instance of a deployment: the instance's sweeper
   * never takes over its task (nothing recorded it anywhere), and the task completes where it runs.
   */
  @Test
  void aServerWithoutAnInstanceRecordsNothingAndIsNeverSweptOver(Vertx vertx, VertxTestContext test) {
    InMemoryTaskStore store = InMemoryTaskStore.create(vertx);
    McpInstance instance = instance(vertx, "b", 10);
    McpServer alone = jobs.register(McpServer.create(vertx, new McpServerOptions(), tasksIn(vertx, store)));
    jobs.register(McpServer.create(vertx, new McpServerOptions(), tasksIn(vertx, store), instance));
    instance.start().compose(v -> TaskFixtures.open(vertx, alone, ALICE)).compose(client ->
        create(client, taskCall("job")).compose(task -> jobs.job(0).compose(job -> {
          String id = task.getString("taskId");
          int sweeps = leases.sweeps.get();
          // The sweeper of the other server goes round several times while the task runs.
          return until(vertx, () -> leases.sweeps.get() >= sweeps + 5)
              .compose(v -> TaskFixtures.get(client, id))
              .compose(running -> {
                test.verify(() -> assertEquals("working", running.getString("status"), running::encode));
                job.complete("done alone");
                return awaitStatus(client, id, "completed");
              })
              .map(done -> {
                test.verify(() -> {
                  assertFalse(leases.mentions(id), leases.calls::toString);
                  assertTrue(alone.instance().isEmpty());
                  assertNoViolations(client);
                });
                return done;
              });
        })))
        .eventually(instance::close).onComplete(test.succeedingThenComplete());
  }

  /**
   * After its lease is lost and registered again, an instance stops the handler that ran under the old id, and
   * records the tasks it starts from then on under the new one.
   */
  @Test
  void recordsTasksStartedAfterALostLeaseUnderTheNewId(Vertx vertx, VertxTestContext test) {
    InMemoryTaskStore store = InMemoryTaskStore.create(vertx);
    McpInstance instance = McpInstance.create(vertx, leases, new InstanceOptions().setName("w").setLeaseTtlMs(3_000)
        .setRenewIntervalMs(20).setOrphanSweepIntervalMs(30_000));
    McpServer server = jobs.register(McpServer.create(vertx, new McpServerOptions(), tasksIn(vertx, store), instance));
    instance.start().compose(v -> TaskFixtures.open(vertx, server, ALICE)).compose(client ->
        create(client, taskCall("job")).compose(first -> jobs.job(0).compose(job -> {
          String lostId = instance.id();
          return leases.release(lostId)
              .compose(v -> job.cancelled().future())
              .compose(reason -> until(vertx, () -> instance.isLive() && !instance.id().equals(lostId)))
              .compose(v -> create(client, taskCall("job")))
              .map(second -> {
                test.verify(() -> {
                  String newId = instance.id();
                  assertTrue(leases.calls.contains("executing " + lostId + " " + first.getString("taskId")),
                      leases.calls::toString);
                  assertTrue(leases.calls.contains("executing " + newId + " " + second.getString("taskId")),
                      leases.calls::toString);
                  assertNoViolations(client);
                });
                return second;
              });
        })))
        .eventually(instance::close).onComplete(test.succeedingThenComplete());
  }

  /** drainTasks completes only once the handler finished and its outcome is stored, not when it is asked. */
  @Test
  void drainingCompletesOnceTheOutcomeIsStored(Vertx vertx, VertxTestContext test) {
    InMemoryTaskStore store = InMemoryTaskStore.create(vertx);
    McpInstance instance = instance(vertx, "a", 30_000);
    McpServer server = jobs.register(McpServer.create(vertx, new McpServerOptions(), tasksIn(vertx, store), instance));
    instance.start().compose(v -> TaskFixtures.open(vertx, server, ALICE)).compose(client ->
        create(client, taskCall("job")).compose(task -> jobs.job(0).compose(job -> {
          String id = task.getString("taskId");
          Future<TaskRecord> seenWhenDrained = server.drainTasks(60_000).compose(v -> store.get(id));
          test.verify(() -> assertFalse(seenWhenDrained.isComplete(), "drained while a handler runs"));
          job.complete("done");
          return seenWhenDrained;
        })))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          assertEquals(TaskStatus.COMPLETED, task.status());
          assertFalse(leases.executing(task.taskId()), leases.calls::toString);
          test.completeNow();
        })));
  }

  /**
   * 250 orphans of a dead instance while the task store is down: the sweeper takes one batch (100) and retries it,
   * taking no more until it is settled; once the store is back, every orphan is failed.
   */
  @Test
  void sweepsABoundedBatchAtATimeAndSettlesEveryOrphan(Vertx vertx, VertxTestContext test) {
    ControlledTaskStore store = new ControlledTaskStore(InMemoryTaskStore.create(vertx));
    McpInstance instance = instance(vertx, "b", 10);
    List<String> ids = new ArrayList<>();
    List<Future<?>> created = new ArrayList<>();
    for (int i = 0; i < 250; i++) {
      String id = TaskIds.generate();
      ids.add(id);
      created.add(store.create(new NewTask(id, "alice", 60_000L, 1_000L, new JsonObject().put("tool", "job"), 1_000))
          .compose(task -> leases.executing("dead-1", id)));
    }
    leases.register("dead-1", 60_000).compose(v -> Future.all(created))
        .compose(v -> {
          store.down = true;
          return leases.release("dead-1");
        })
        .compose(v -> instance.start())
        .compose(v -> {
          McpServer.create(vertx, new McpServerOptions(), tasksIn(vertx, store), instance);
          // Three rounds of retries of the first batch at least.
          return until(vertx, () -> store.reads.get() >= 300);
        })
        .compose(v -> {
          test.verify(() -> assertEquals(100, store.read.size(), "orphans being settled at once"));
          store.down = false;
          return until(vertx, () -> failedAll(store, ids));
        })
        .compose(v -> Future.all(ids.stream().map(store::get).toList()))
        .eventually(instance::close)
        .onComplete(test.succeeding(all -> test.verify(() -> {
          for (int i = 0; i < ids.size(); i++) {
            TaskRecord task = all.resultAt(i);
            assertEquals(TaskStatus.FAILED, task.status());
            assertTrue(task.statusMessage().contains("the lease of dead-1 expired"), task.statusMessage());
          }
          test.completeNow();
        })));
  }

  private static boolean failedAll(ControlledTaskStore store, List<String> ids) {
    // Read straight from the store's answer; the in-memory store answers at once.
    return ids.stream().allMatch(id -> {
      Future<TaskRecord> task = store.get(id);
      return task.succeeded() && task.result().status() == TaskStatus.FAILED;
    });
  }

  /** Completes once {@code condition} holds, checking every 5 ms; the test's timeout bounds the wait. */
  private static Future<Void> until(Vertx vertx, Supplier<Boolean> condition) {
    return condition.get() ? Future.succeededFuture()
        : vertx.timer(5).compose(t -> until(vertx, condition));
  }

  /** An in-memory lease store that records executions and sweeps, and can refuse to record executions. */
  static final class RecordingLeaseStore implements LeaseStore {

    private final LeaseStore delegate;
    final List<String> calls = new CopyOnWriteArrayList<>();
    final AtomicInteger sweeps = new AtomicInteger();
    volatile boolean refuseExecuting;

    RecordingLeaseStore(LeaseStore delegate) {
      this.delegate = delegate;
    }

    /** Whether the last record of the task says it is being executed. */
    boolean executing(String taskId) {
      String last = null;
      for (String call : calls) {
        if (call.endsWith(" " + taskId)) {
          last = call;
        }
      }
      return last != null && last.startsWith("executing ");
    }

    boolean mentions(String taskId) {
      return calls.stream().anyMatch(call -> call.endsWith(" " + taskId));
    }

    @Override
    public Future<Void> register(String instanceId, long ttlMs) {
      return delegate.register(instanceId, ttlMs);
    }

    @Override
    public Future<Void> renew(String instanceId, long ttlMs) {
      return delegate.renew(instanceId, ttlMs);
    }

    @Override
    public Future<Void> release(String instanceId) {
      return delegate.release(instanceId);
    }

    @Override
    public Future<Boolean> isLive(String instanceId) {
      return delegate.isLive(instanceId);
    }

    @Override
    public Future<String> claimSession(String sessionId, String instanceId, long ttlMs) {
      return delegate.claimSession(sessionId, instanceId, ttlMs);
    }

    @Override
    public Future<String> sessionOwner(String sessionId) {
      return delegate.sessionOwner(sessionId);
    }

    @Override
    public Future<Void> releaseSession(String sessionId, String instanceId) {
      return delegate.releaseSession(sessionId, instanceId);
    }

    @Override
    public Future<Void> executing(String instanceId, String taskId) {
      if (refuseExecuting) {
        return Future.failedFuture(new IllegalStateException("the lease store is unreachable"));
      }
      calls.add("executing " + instanceId + " " + taskId);
      return delegate.executing(instanceId, taskId);
    }

    @Override
    public Future<Void> executed(String instanceId, String taskId) {
      calls.add("executed " + instanceId + " " + taskId);
      return delegate.executed(instanceId, taskId);
    }

    @Override
    public Future<List<Orphan>> takeOrphans(int max) {
      sweeps.incrementAndGet();
      return delegate.takeOrphans(max);
    }
  }
}
