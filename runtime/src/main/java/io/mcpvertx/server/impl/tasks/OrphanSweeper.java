package io.mcpvertx.server.impl.tasks;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.server.impl.observe.ObserverSlot;
import io.mcpvertx.server.observe.McpObserver;
import io.mcpvertx.spi.leases.LeaseStore;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.lang.System.Logger.Level;
import java.lang.System.Logger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Settles the tasks of instances whose lease is gone while their handlers ran, so no task stays working after its
 * executor died: each is run again here when its tool allows it ({@link Rerunner}), and failed with a message
 * saying what happened otherwise (a task already terminal stays as it is). Runs on every instance of a
 * deployment; the lease store hands each orphan to one of them.
 *
 * <p>Bounded: one sweep at a time (a tick that finds one running does nothing), and a batch is taken only once
 * every orphan of the previous one is settled, so at most {@link #ORPHAN_BATCH} settlements are under way, also
 * while the task store is down and settlements are retried. The sweep's state is accessed only on
 * {@code context}.
 */
final class OrphanSweeper {

  /** Orphans settled per sweep step; a full batch is followed by another step at once. */
  static final int ORPHAN_BATCH = 100;

  private static final Logger LOG = System.getLogger(OrphanSweeper.class.getName());

  private final Vertx vertx;
  private final TaskStore store;
  private final McpInstance instance;
  private final Context context;
  private final Supplier<Rerunner> rerunner;
  private final Logger audit;
  private final long timer;
  private boolean sweeping;
  private volatile boolean closed;

  /** Runs the handler of an orphaned task again on this instance, when its tool declares it may run twice. */
  public interface Rerunner {

    /**
     * Starts the task's handler again here, on {@code context}, registered through {@link TaskEngine#adopt} under
     * {@code executor}; false when the task cannot be run again here (it is then failed).
     */
    boolean rerun(TaskRecord task, String executor, Context context);
  }

  /** Starts sweeping every orphan sweep interval of {@code instance}, on {@code context}. */
  private final ObserverSlot observers;

  OrphanSweeper(Vertx vertx, TaskStore store, McpInstance instance, Context context, Supplier<Rerunner> rerunner,
      Logger audit, ObserverSlot observers) {
    this.vertx = vertx;
    this.observers = observers;
    this.store = store;
    this.instance = instance;
    this.context = context;
    this.rerunner = rerunner;
    this.audit = audit;
    this.timer = vertx.setPeriodic(instance.options().getOrphanSweepIntervalMs(),
        t -> context.runOnContext(v -> sweep()));
  }

  /** The status message of a task failed because its executor's lease is gone. */
  static String orphanMessage(String deadExecutor) {
    return "The server instance running this task stopped before it finished (the lease of " + deadExecutor
        + " expired)";
  }

  /**
   * Stops sweeping. Orphans taken but not settled yet stay recorded under this instance, for whoever takes over
   * after its lease is released.
   */
  void close() {
    closed = true;
    vertx.cancelTimer(timer);
  }

  private void sweep() {
    if (closed || sweeping || !instance.isLive()) {
      return;
    }
    sweeping = true;
    sweepBatch();
  }

  /** Takes one batch of orphans and settles it; another follows at once when the batch was full. */
  private void sweepBatch() {
    String self = instance.id();
    instance.leases().takeOrphans(ORPHAN_BATCH).onComplete(ar -> context.runOnContext(v -> {
      if (ar.failed()) {
        sweeping = false;
        LOG.log(Level.WARNING, () -> "Looking for tasks of stopped instances failed: " + ar.cause().getMessage());
        return;
      }
      List<LeaseStore.Orphan> orphans = ar.result();
      List<Future<Void>> settled = new ArrayList<>(orphans.size());
      for (LeaseStore.Orphan orphan : orphans) {
        Promise<Void> done = Promise.promise();
        settleOrphan(orphan, self, done);
        settled.add(done.future());
      }
      Future.join(settled).onComplete(all -> context.runOnContext(x -> {
        if (orphans.size() == ORPHAN_BATCH && !closed && instance.isLive()) {
          sweepBatch();
        } else {
          sweeping = false;
        }
      }));
    }));
  }

  /**
   * Settles one orphan, recorded first as executed by this instance ({@code self}): the store handed it out once,
   * so were this instance to die (or stop) before it is settled, it must be this instance's orphan in turn.
   * Completes {@code done} once the orphan is settled, or left recorded under {@code self} because the sweeper
   * closed.
   */
  private void settleOrphan(LeaseStore.Orphan orphan, String self, Promise<Void> done) {
    instance.leases().executing(self, orphan.taskId())
        .recover(e -> {
          LOG.log(Level.WARNING, () -> "Task " + orphan.taskId() + ": recording its settlement failed; settling it "
              + "anyway: " + e.getMessage());
          return Future.succeededFuture();
        })
        .onComplete(recorded -> context.runOnContext(v -> settleTaken(orphan, self, done)));
  }

  private void settleTaken(LeaseStore.Orphan orphan, String self, Promise<Void> done) {
    if (closed) {
      // Recorded under this instance: once its lease is released, another instance takes the orphan.
      done.tryComplete();
      return;
    }
    store.get(orphan.taskId()).onComplete(ar -> context.runOnContext(v -> {
      if (ar.failed()) {
        LOG.log(Level.WARNING, () -> "Task " + orphan.taskId() + ": reading it after its executor stopped "
            + "failed; retrying: " + ar.cause().getMessage());
        vertx.setTimer(instance.options().getOrphanSweepIntervalMs(),
            t -> context.runOnContext(x -> settleTaken(orphan, self, done)));
        return;
      }
      TaskRecord task = ar.result();
      if (task == null || task.status().isTerminal()) {
        // Expired, or settled before its executor's record was removed: nothing to do.
        forgetSettlement(self, orphan.taskId());
        done.tryComplete();
        return;
      }
      Rerunner again = rerunner.get();
      if (again != null && again.rerun(task, self, context)) {
        audit.log(Level.INFO, () -> "task rerun id=" + orphan.taskId() + " executor=" + orphan.instanceId()
            + " by=" + self + " reason=executor-lease-expired");
        McpObserver observer = observers.get();
        if (observer != null) {
          observer.orphanSettled(true);
        }
        done.tryComplete();
        return;
      }
      failOrphan(orphan, self, done);
    }));
  }

  private void failOrphan(LeaseStore.Orphan orphan, String self, Promise<Void> done) {
    String message = orphanMessage(orphan.instanceId());
    JsonObject error = new JsonRpcError(JsonRpcErrorCodes.INTERNAL_ERROR, message).toJson();
    store.complete(orphan.taskId(), TaskStatus.FAILED, null, error, message).onComplete(ar -> {
      if (ar.failed()) {
        // Handed out once: retry here until the store answers, or the task would stay working. Once closed it stays
        // recorded under this instance, for whoever takes over after its lease is released.
        LOG.log(Level.WARNING, () -> "Task " + orphan.taskId() + ": failing it after its executor stopped failed; "
            + "retrying: " + ar.cause().getMessage());
        if (closed) {
          done.tryComplete();
        } else {
          vertx.setTimer(instance.options().getOrphanSweepIntervalMs(),
              t -> context.runOnContext(v -> failOrphan(orphan, self, done)));
        }
        return;
      }
      forgetSettlement(self, orphan.taskId());
      done.tryComplete();
      if (ar.result().applied()) {
        audit.log(Level.INFO, () -> "task failed id=" + orphan.taskId() + " executor=" + orphan.instanceId()
            + " by=" + self + " reason=executor-lease-expired");
        McpObserver observer = observers.get();
        if (observer != null) {
          observer.orphanSettled(false);
        }
      }
    });
  }

  private void forgetSettlement(String self, String taskId) {
    instance.leases().executed(self, taskId).onFailure(e -> LOG.log(Level.DEBUG,
        () -> "Task " + taskId + ": forgetting its settlement failed (a sweeper will find it settled): " + e));
  }
}
