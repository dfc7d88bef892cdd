package io.mcpvertx.server.impl;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.spi.leases.LeaseStore;
import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskIds;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.TaskStoreException;
import io.mcpvertx.spi.tasks.TaskUpdate;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The part of durable tasks both wires share: creating tasks in the {@link TaskStore}, settling them when their
 * handler finishes, cancelling them, finding them for their owner, and waking whoever waits on a task when the
 * store announces a change (made here or on another instance).
 *
 * <p>Thread-safe: requests of many sessions and event loops use one engine. Watchers are called on their own
 * context.
 */
final class TaskEngine {

  static final String RELATED_TASK = "io.modelcontextprotocol/related-task";
  static final String EXTENSION = "io.modelcontextprotocol/tasks";
  static final Set<TaskStatus> ACTIVE = EnumSet.of(TaskStatus.WORKING, TaskStatus.INPUT_REQUIRED);

  /** Pauses between attempts to store an outcome while the store is unavailable: doubling, up to the maximum. */
  private static final long FIRST_SETTLE_RETRY_MS = 100;
  private static final long MAX_SETTLE_RETRY_MS = 5_000;

  /** Orphans settled per sweep step; a full batch is followed by another step at once. */
  private static final int ORPHAN_BATCH = 100;

  private static final Logger LOG = System.getLogger(TaskEngine.class.getName());
  /** Create, complete, cancel and retrieval of results, one line each, for whoever audits who did what. */
  private static final Logger AUDIT = System.getLogger("io.mcpvertx.tasks.audit");

  private final Vertx vertx;
  private final TaskStore store;
  private final TaskOptions options;
  /** Handlers running on this instance, by task id. */
  private final ConcurrentMap<String, TaskRun> runs = new ConcurrentHashMap<>();
  /**
   * What maxLocalExecutions bounds: tasks being created here plus handlers in {@code runs}. A slot is taken
   * before the task is created (so a burst of calls cannot all pass the check) and given back when creation
   * fails or the run leaves {@code runs}.
   */
  private final AtomicInteger executions = new AtomicInteger();
  /** Who waits for changes of a task, by task id. */
  private final ConcurrentMap<String, CopyOnWriteArrayList<Watcher>> watchers = new ConcurrentHashMap<>();
  private final AtomicInteger watcherCount = new AtomicInteger();
  private final Promise<TaskStore.Registration> registration = Promise.promise();
  private final Context listenerContext;
  private volatile boolean closed;
  /** The deployment instance whose lease covers this engine's executions; null when the server stands alone. */
  private final McpInstance instance;
  /** The lease id each task running here was recorded under (it changes when a lost lease is registered again). */
  private final ConcurrentMap<String, String> executors = new ConcurrentHashMap<>();
  private long sweeper = -1;
  /** Whether a sweep for orphans is under way; accessed only on {@code listenerContext}. */
  private boolean sweeping;
  /** Runs orphaned tasks of tools that allow it again here; null: every orphan is failed. */
  private volatile Rerunner rerunner;

  /** A party interested in one task's changes; {@code onChange} runs on {@code context}. */
  record Watcher(Context context, Consumer<TaskChange> onChange) {
  }

  /** Runs the handler of an orphaned task again on this instance, when its tool declares it may run twice. */
  interface Rerunner {

    /**
     * Starts the task's handler again here, on {@code context}, registered through {@link #adopt} under
     * {@code executor}; false when the task cannot be run again here (it is then failed).
     */
    boolean rerun(TaskRecord task, String executor, Context context);
  }

  TaskEngine(Vertx vertx, TaskStore store, TaskOptions options) {
    this(vertx, store, options, null);
  }

  TaskEngine(Vertx vertx, TaskStore store, TaskOptions options, McpInstance instance) {
    this.vertx = vertx;
    this.store = store;
    this.options = options;
    this.instance = instance;
    this.listenerContext = vertx.getOrCreateContext();
    listenerContext.runOnContext(v -> listen(1_000));
    if (instance != null) {
      instance.onLost(this::leaseLost);
      sweeper = vertx.setPeriodic(instance.options().getOrphanSweepIntervalMs(),
          t -> listenerContext.runOnContext(v -> sweepOrphans()));
    }
  }

  /**
   * Registers for the store's change announcements, retrying while the store is unreachable (a Redis outage at
   * startup): until then waiters wake only when they re-read, so the registration must not give up.
   */
  private void listen(long retryMs) {
    if (closed) {
      return;
    }
    store.listen(this::onChange).onComplete(ar -> {
      if (ar.succeeded()) {
        if (closed) {
          ar.result().unregister();
        } else {
          registration.tryComplete(ar.result());
          // Changes made before the registration were not announced to us: everyone re-reads.
          onChange(TaskChange.resync());
        }
        return;
      }
      LOG.log(Level.WARNING, "Task store listener could not be registered; retrying in " + retryMs + " ms: "
          + ar.cause().getMessage());
      vertx.setTimer(retryMs, t -> listenerContext.runOnContext(v -> listen(Math.min(retryMs * 2, 30_000))));
    });
  }

  TaskStore store() {
    return store;
  }

  /** Whether this engine's executions are covered by an instance lease (the server is part of a deployment). */
  boolean clustered() {
    return instance != null;
  }

  void rerunner(Rerunner rerunner) {
    this.rerunner = rerunner;
  }

  TaskOptions options() {
    return options;
  }

  Vertx vertx() {
    return vertx;
  }

  // ---- creation and settlement ----

  /**
   * Creates a task for {@code owner} (durably: it is readable everywhere when this completes). The TTL asked for
   * is cut to the maximum; a null request gets the default. Refusals are JSON-RPC errors.
   */
  Future<TaskRecord> create(String owner, Long requestedTtlMs, JsonObject metadata) {
    if (executions.incrementAndGet() > options.getMaxLocalExecutions()) {
      executions.decrementAndGet();
      return Future.failedFuture(new McpException(JsonRpcErrorCodes.SERVER_OVERLOADED,
          "Too many tasks running on this server (limit " + options.getMaxLocalExecutions() + ")"));
    }
    long ttl = requestedTtlMs == null ? options.getDefaultTtlMs()
        : Math.max(1, Math.min(requestedTtlMs, options.getMaxTtlMs()));
    NewTask task = new NewTask(TaskIds.generate(), owner, ttl, options.getPollIntervalMs(), metadata,
        options.getMaxActivePerOwner());
    // Clustered, the execution is recorded before the task exists: were this instance to die at any point after
    // the task is created, another one finds the task among its orphans. A task never created is ignored there.
    return recordExecution(task.taskId())
        .compose(v -> store.create(task).recover(e -> Future.failedFuture(storeError(e, "create the task"))))
        .onFailure(e -> {
          executions.decrementAndGet();
          executionOver(task.taskId());
        })
        .onSuccess(created -> AUDIT.log(Level.INFO, () -> "task created id=" + created.taskId() + " owner="
            + owner + " tool=" + metadata.getString("tool") + " ttlMs=" + ttl));
  }

  /**
   * Registers the local handler of a task, so cancellation and input reach it; every task {@link #create}d here
   * is registered, and keeps its execution slot until it leaves.
   */
  void register(TaskRun run) {
    runs.put(run.taskId(), run);
    run.expiryTimer(vertx.setTimer(Math.max(1, run.expiresAt() - System.currentTimeMillis()), t -> {
      // A task must not outlive its TTL in "working": the store forgets it, and the handler is told to stop.
      if (unregister(run)) {
        executionOver(run.taskId());
        run.cancel("The task expired");
      }
    }));
    String executor = executors.get(run.taskId());
    if (executor != null && (!executor.equals(instance.id()) || !instance.isLive()) && unregister(run)) {
      // The lease it was recorded under was lost while the task was being created: it is an orphan already.
      disown(run);
    }
  }

  /**
   * Registers the handler of an orphaned task run again here, whose execution is recorded under {@code executor}
   * already; false when this server runs as many handlers as it may (the task is then failed instead).
   */
  boolean adopt(TaskRun run, String executor) {
    if (executions.incrementAndGet() > options.getMaxLocalExecutions()) {
      executions.decrementAndGet();
      return false;
    }
    executors.put(run.taskId(), executor);
    register(run);
    return true;
  }

  /**
   * Stores the outcome of a task's handler. A task cancelled (or expired) meanwhile stays as it is: terminal
   * statuses never change. While the store is unavailable the outcome is stored again, with growing pauses, until
   * the task would have expired: an outage does not throw away work that was done.
   */
  Future<TaskUpdate> settle(TaskRun run, TaskStatus status, JsonObject result, JsonObject error, String message) {
    unregister(run);
    if (run.disowned()) {
      // Its lease was lost: the task is settled by whichever instance took it over, never by this late outcome.
      LOG.log(Level.DEBUG, () -> "Task " + run.taskId() + " finished after its lease was lost; its outcome is dropped");
      return Future.succeededFuture(TaskUpdate.missing());
    }
    return storeOutcome(run, status, result, error, message, FIRST_SETTLE_RETRY_MS).onComplete(ar -> {
      // Only now: had this instance died before the outcome was stored, the task would be an orphan to settle.
      executionOver(run.taskId());
      if (ar.failed()) {
        LOG.log(Level.ERROR, "Task " + run.taskId() + ": its outcome could not be stored", ar.cause());
      } else if (ar.result().applied()) {
        AUDIT.log(Level.INFO, () -> "task " + status.wireName() + " id=" + run.taskId());
      } else {
        LOG.log(Level.DEBUG, () -> "Task " + run.taskId() + " finished after it was "
            + (ar.result().task() == null ? "expired" : ar.result().task().status().wireName())
            + "; its outcome is dropped");
      }
    });
  }

  private Future<TaskUpdate> storeOutcome(TaskRun run, TaskStatus status, JsonObject result, JsonObject error,
      String message, long retryMs) {
    return store.complete(run.taskId(), status, result, error, message).recover(e -> {
      boolean unavailable = e instanceof TaskStoreException t && t.reason() == TaskStoreException.Reason.UNAVAILABLE;
      if (!unavailable || closed || System.currentTimeMillis() + retryMs >= run.expiresAt()) {
        return Future.failedFuture(e);
      }
      if (retryMs == FIRST_SETTLE_RETRY_MS) {
        LOG.log(Level.WARNING, () -> "Task " + run.taskId() + ": the store is unavailable; its outcome is kept and "
            + "stored once the store is back (" + e.getMessage() + ")");
      }
      Promise<TaskUpdate> retried = Promise.promise();
      vertx.setTimer(retryMs, t -> storeOutcome(run, status, result, error, message,
          Math.min(2 * retryMs, MAX_SETTLE_RETRY_MS)).onComplete(retried));
      return retried.future();
    });
  }

  /** Moves an active task to cancelled, and tells its handler if it runs here. */
  Future<TaskUpdate> cancel(String taskId, String owner, String reason) {
    return store.transition(taskId, ACTIVE, TaskStatus.CANCELLED, reason)
        .recover(e -> Future.failedFuture(storeError(e, "cancel the task")))
        .onSuccess(update -> {
          if (update.applied()) {
            AUDIT.log(Level.INFO, () -> "task cancelled id=" + taskId + " by=" + owner);
            TaskRun run = runs.get(taskId);
            if (run != null && unregister(run)) {
              executionOver(taskId);
              run.cancel(reason);
            }
          }
        });
  }

  /**
   * The task, if it exists and belongs to {@code owner}; otherwise -32602, the same for a task that never
   * existed, expired, or is someone else's, so nothing leaks.
   */
  Future<TaskRecord> lookup(Object rawTaskId, String owner) {
    if (!(rawTaskId instanceof String taskId) || taskId.isEmpty()) {
      return Future.failedFuture(McpException.invalidParams("Invalid params: \"taskId\" must be a non-empty string"));
    }
    return store.get(taskId).recover(e -> Future.failedFuture(storeError(e, "read the task"))).compose(task -> {
      if (task == null || !task.owner().equals(owner)) {
        if (task != null) {
          LOG.log(Level.INFO, () -> "Task " + taskId + " requested by " + owner + ", who does not own it");
        }
        return Future.failedFuture(McpException.invalidParams("Failed to retrieve task: Task not found"));
      }
      return Future.succeededFuture(task);
    });
  }

  void auditRetrieved(TaskRecord task, String owner) {
    AUDIT.log(Level.INFO, () -> "task result retrieved id=" + task.taskId() + " status=" + task.status().wireName()
        + " by=" + owner);
  }

  TaskRun run(String taskId) {
    return runs.get(taskId);
  }

  /**
   * Removes a run that is over, once, giving back its execution slot; false if it was already gone. A run that
   * ends without an outcome of its own (cancelled, expired) is over for the lease store too; {@link #settle}
   * tells the store once the outcome is stored.
   */
  private boolean unregister(TaskRun run) {
    if (!runs.remove(run.taskId(), run)) {
      return false;
    }
    vertx.cancelTimer(run.expiryTimer());
    executions.decrementAndGet();
    return true;
  }

  // ---- executor leases ----

  /** Records that this instance runs the task; fails (the task is then not created) when that cannot be done. */
  private Future<Void> recordExecution(String taskId) {
    if (instance == null) {
      return Future.succeededFuture();
    }
    if (!instance.isLive()) {
      return Future.failedFuture(McpException.internal(
          "This server instance holds no lease at the moment; try again shortly"));
    }
    String executor = instance.id();
    executors.put(taskId, executor);
    return instance.leases().executing(executor, taskId).recover(e -> {
      executors.remove(taskId);
      LOG.log(Level.WARNING, "Task " + taskId + ": its executor could not be recorded: " + e.getMessage());
      // Without the record, the task would stay working forever should this instance die: refuse it.
      return Future.failedFuture(McpException.internal(
          "The lease store is unavailable: could not record the task's executor; try again later"));
    });
  }

  /** The task's handler is no longer running here. */
  private void executionOver(String taskId) {
    String executor = executors.remove(taskId);
    if (executor != null) {
      instance.leases().executed(executor, taskId).onFailure(e -> LOG.log(Level.DEBUG,
          () -> "Task " + taskId + ": forgetting its execution failed (a sweeper will find it settled): " + e));
    }
  }

  /**
   * Settles the tasks of instances whose lease is gone while their handlers ran, so no task stays working after
   * its executor died: each is run again here when its tool allows it ({@link Rerunner}), and failed with a message
   * saying what happened otherwise (a task already terminal stays as it is). Runs on every instance; the lease
   * store hands each orphan to one of them.
   *
   * <p>Bounded: one sweep at a time (a tick that finds one running does nothing), and a batch is taken only once
   * every orphan of the previous one is settled, so at most {@link #ORPHAN_BATCH} settlements are under way, also
   * while the task store is down and settlements are retried.
   */
  private void sweepOrphans() {
    if (closed || sweeping || !instance.isLive()) {
      return;
    }
    sweeping = true;
    sweepBatch();
  }

  /** Takes one batch of orphans and settles it; another follows at once when the batch was full. */
  private void sweepBatch() {
    String self = instance.id();
    instance.leases().takeOrphans(ORPHAN_BATCH).onComplete(ar -> listenerContext.runOnContext(v -> {
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
      Future.join(settled).onComplete(all -> listenerContext.runOnContext(x -> {
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
   * Completes {@code done} once the orphan is settled, or left recorded under {@code self} because this engine
   * closed.
   */
  private void settleOrphan(LeaseStore.Orphan orphan, String self, Promise<Void> done) {
    instance.leases().executing(self, orphan.taskId())
        .recover(e -> {
          LOG.log(Level.WARNING, () -> "Task " + orphan.taskId() + ": recording its settlement failed; settling it "
              + "anyway: " + e.getMessage());
          return Future.succeededFuture();
        })
        .onComplete(recorded -> listenerContext.runOnContext(v -> settleTaken(orphan, self, done)));
  }

  private void settleTaken(LeaseStore.Orphan orphan, String self, Promise<Void> done) {
    if (closed) {
      // Recorded under this instance: once its lease is released, another instance takes the orphan.
      done.tryComplete();
      return;
    }
    store.get(orphan.taskId()).onComplete(ar -> listenerContext.runOnContext(v -> {
      if (ar.failed()) {
        LOG.log(Level.WARNING, () -> "Task " + orphan.taskId() + ": reading it after its executor stopped "
            + "failed; retrying: " + ar.cause().getMessage());
        vertx.setTimer(instance.options().getOrphanSweepIntervalMs(),
            t -> listenerContext.runOnContext(x -> settleTaken(orphan, self, done)));
        return;
      }
      TaskRecord task = ar.result();
      if (task == null || task.status().isTerminal()) {
        // Expired, or settled before its executor's record was removed: nothing to do.
        forgetSettlement(self, orphan.taskId());
        done.tryComplete();
        return;
      }
      Rerunner again = rerunner;
      if (again != null && again.rerun(task, self, listenerContext)) {
        AUDIT.log(Level.INFO, () -> "task rerun id=" + orphan.taskId() + " executor=" + orphan.instanceId()
            + " by=" + self + " reason=executor-lease-expired");
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
        // Handed out once: retry here until the store answers, or the task would stay working. Once this engine
        // is closed it stays recorded under this instance, for whoever takes over after its lease is released.
        LOG.log(Level.WARNING, () -> "Task " + orphan.taskId() + ": failing it after its executor stopped failed; "
            + "retrying: " + ar.cause().getMessage());
        if (closed) {
          done.tryComplete();
        } else {
          vertx.setTimer(instance.options().getOrphanSweepIntervalMs(),
              t -> listenerContext.runOnContext(v -> failOrphan(orphan, self, done)));
        }
        return;
      }
      forgetSettlement(self, orphan.taskId());
      done.tryComplete();
      if (ar.result().applied()) {
        AUDIT.log(Level.INFO, () -> "task failed id=" + orphan.taskId() + " executor=" + orphan.instanceId()
            + " by=" + self + " reason=executor-lease-expired");
      }
    });
  }

  /** The status message of a task failed because its executor's lease is gone. */
  static String orphanMessage(String deadExecutor) {
    return "The server instance running this task stopped before it finished (the lease of " + deadExecutor
        + " expired)";
  }

  private void forgetSettlement(String self, String taskId) {
    instance.leases().executed(self, taskId).onFailure(e -> LOG.log(Level.DEBUG,
        () -> "Task " + taskId + ": forgetting its settlement failed (a sweeper will find it settled): " + e));
  }

  /**
   * This instance lost its lease: its executions are orphans others may settle at any moment, so the handlers
   * running under the lost id are stopped here, and what they finish with is not stored (it would race the
   * instance that took the task over, which may be running it again).
   */
  private void leaseLost(String lostId) {
    for (TaskRun run : runs.values()) {
      if (lostId.equals(executors.get(run.taskId())) && unregister(run)) {
        disown(run);
      }
    }
  }

  private void disown(TaskRun run) {
    executors.remove(run.taskId());
    run.disown();
    run.cancel("This server instance lost its lease; the task is settled by another instance");
  }

  /**
   * Completes when every handler running here has finished, or after {@code timeoutMs}: for a graceful
   * shutdown, before the instance releases its lease (what is still running then becomes an orphan at once).
   */
  Future<Void> drain(long timeoutMs) {
    Promise<Void> drained = Promise.promise();
    long deadline = System.currentTimeMillis() + timeoutMs;
    long timer = vertx.setPeriodic(20, t -> {
      if (idle() || System.currentTimeMillis() >= deadline) {
        vertx.cancelTimer(t);
        drained.tryComplete();
      }
    });
    if (idle()) {
      vertx.cancelTimer(timer);
      drained.tryComplete();
    }
    return drained.future();
  }

  /** No handler runs here, and every outcome is stored (executions are forgotten only then). */
  private boolean idle() {
    return runs.isEmpty() && executors.isEmpty();
  }

  // ---- change announcements ----

  /**
   * Calls {@code onChange} on the caller's context for every change of the task, until the returned action is
   * run. Bounded: fails with -32005 when too many watch at once.
   */
  Runnable watch(String taskId, Consumer<TaskChange> onChange) {
    if (watcherCount.incrementAndGet() > options.getMaxResultWaiters()) {
      watcherCount.decrementAndGet();
      throw new McpException(JsonRpcErrorCodes.SERVER_OVERLOADED,
          "Too many parties waiting on tasks (limit " + options.getMaxResultWaiters() + ")");
    }
    Watcher watcher = new Watcher(vertx.getOrCreateContext(), onChange);
    watchers.computeIfAbsent(taskId, k -> new CopyOnWriteArrayList<>()).add(watcher);
    return () -> {
      CopyOnWriteArrayList<Watcher> list = watchers.get(taskId);
      if (list != null && list.remove(watcher)) {
        watcherCount.decrementAndGet();
        watchers.computeIfPresent(taskId, (k, l) -> l.isEmpty() ? null : l);
      }
    };
  }

  private void onChange(TaskChange change) {
    if (change.kind() == TaskChange.Kind.RESYNC) {
      watchers.values().forEach(list -> list.forEach(w -> w.context().runOnContext(v -> w.onChange().accept(change))));
      runs.values().forEach(run -> run.context().runOnContext(v -> run.onChange(change)));
      return;
    }
    TaskRun run = runs.get(change.taskId());
    if (run != null) {
      if (change.kind() == TaskChange.Kind.STATUS && change.status() == TaskStatus.CANCELLED) {
        // Cancelled through another instance: stop the handler here.
        if (unregister(run)) {
          executionOver(run.taskId());
          run.cancel("The task was cancelled");
        }
      } else {
        run.context().runOnContext(v -> run.onChange(change));
      }
    }
    CopyOnWriteArrayList<Watcher> list = watchers.get(change.taskId());
    if (list != null) {
      list.forEach(w -> w.context().runOnContext(v -> w.onChange().accept(change)));
    }
  }

  Future<Void> close() {
    closed = true;
    if (sweeper >= 0) {
      vertx.cancelTimer(sweeper);
    }
    return registration.future().isComplete() ? registration.future().compose(TaskStore.Registration::unregister)
        : Future.succeededFuture();
  }

  // ---- errors ----

  /** A JSON-RPC error for a store failure; the store's own words stay in the log. */
  static Throwable storeError(Throwable e, String action) {
    if (e instanceof McpException) {
      return e;
    }
    if (e instanceof TaskStoreException t) {
      switch (t.reason()) {
        case LIMIT_EXCEEDED:
          return new McpException(JsonRpcErrorCodes.SERVER_OVERLOADED, "Too many active tasks: " + t.getMessage());
        case INVALID_CURSOR:
          return McpException.invalidParams("Invalid params: invalid cursor");
        case UNAVAILABLE:
          LOG.log(Level.WARNING, "Task store unavailable: could not " + action + ": " + t.getMessage());
          return McpException.internal("Task store unavailable: could not " + action + "; try again later");
        default:
          break;
      }
    }
    LOG.log(Level.ERROR, "Task store failed to " + action, e);
    return McpException.internal("Internal error: could not " + action);
  }

  /** The JSON-RPC error object a failed handler's outcome is stored as. */
  static JsonObject errorJson(Throwable failure, String method) {
    JsonRpcError error = ErrorMapper.toError(failure, method);
    return error.toJson();
  }
}
