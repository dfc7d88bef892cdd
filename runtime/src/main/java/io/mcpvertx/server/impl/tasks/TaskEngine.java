package io.mcpvertx.server.impl.tasks;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.server.impl.observe.ObserverSlot;
import io.mcpvertx.server.observe.McpObserver;
import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskChange;
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
import java.lang.System.Logger.Level;
import java.lang.System.Logger;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
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
public final class TaskEngine {

  public static final String RELATED_TASK = "io.modelcontextprotocol/related-task";
  public static final String EXTENSION = "io.modelcontextprotocol/tasks";
  static final Set<TaskStatus> ACTIVE = EnumSet.of(TaskStatus.WORKING, TaskStatus.INPUT_REQUIRED);

  /** Pauses between attempts to store an outcome while the store is unavailable: doubling, up to the maximum. */
  private static final long FIRST_SETTLE_RETRY_MS = 100;
  private static final long MAX_SETTLE_RETRY_MS = 5_000;

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
  private final TaskWatchers watchers;
  private final Promise<TaskStore.Registration> registration = Promise.promise();
  private final Context listenerContext;
  private volatile boolean closed;
  /** The deployment instance whose lease covers this engine's executions; null when the server stands alone. */
  private final McpInstance instance;
  /** The lease id each task running here was recorded under (it changes when a lost lease is registered again). */
  private final ConcurrentMap<String, String> executors = new ConcurrentHashMap<>();
  /** Settles the tasks of dead instances; null when the server stands alone. */
  private final OrphanSweeper sweeper;
  /** Runs orphaned tasks of tools that allow it again here; null: every orphan is failed. */
  private volatile OrphanSweeper.Rerunner rerunner;

  /** Where the server's observer is found; its slot is empty when none is installed. */
  private final ObserverSlot observers;

  public TaskEngine(Vertx vertx, TaskStore store, TaskOptions options, McpInstance instance,
      ObserverSlot observers) {
    this.vertx = vertx;
    this.observers = observers;
    this.store = store;
    this.options = options;
    this.instance = instance;
    this.watchers = new TaskWatchers(vertx, options.getMaxResultWaiters());
    this.listenerContext = vertx.getOrCreateContext();
    listenerContext.runOnContext(v -> listen(1_000));
    if (instance != null) {
      instance.onLost(this::leaseLost);
      sweeper = new OrphanSweeper(vertx, store, instance, listenerContext, () -> rerunner, AUDIT, observers);
    } else {
      sweeper = null;
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

  public TaskStore store() {
    return store;
  }

  /** Whether this engine's executions are covered by an instance lease (the server is part of a deployment). */
  boolean clustered() {
    return instance != null;
  }

  public void rerunner(OrphanSweeper.Rerunner rerunner) {
    this.rerunner = rerunner;
  }

  public Vertx vertx() {
    return vertx;
  }

  // ---- creation and settlement ----

  /**
   * Creates a task for {@code owner} (durably: it is readable everywhere when this completes). The TTL asked for
   * is cut to the maximum; a null request gets the default. Refusals are JSON-RPC errors.
   */
  public Future<TaskRecord> create(String owner, Long requestedTtlMs, JsonObject metadata) {
    if (executions.incrementAndGet() > options.getMaxLocalExecutions()) {
      executions.decrementAndGet();
      return Future.failedFuture(new McpException(JsonRpcErrorCodes.SERVER_OVERLOADED,
          "Too many tasks running on this server (limit " + options.getMaxLocalExecutions() + ")"));
    }
    long ttl = requestedTtlMs == null ? options.getDefaultTtlMs()
        : Math.max(1, Math.min(requestedTtlMs, options.getMaxTtlMs()));
    NewTask task = new NewTask(store.newTaskId(owner), owner, ttl, options.getPollIntervalMs(), metadata,
        options.getMaxActivePerOwner());
    // Clustered, the execution is recorded before the task exists: were this instance to die at any point after
    // the task is created, another one finds the task among its orphans. A task never created is ignored there.
    return recordExecution(task.taskId())
        .compose(v -> store.create(task).recover(e -> {
          if (unavailable(e)) {
            // The client is told the task was not created; the store may have run the create all the same.
            abandon(task, System.currentTimeMillis(), FIRST_SETTLE_RETRY_MS);
          } else {
            executionOver(task.taskId());
          }
          return Future.failedFuture(TaskErrors.storeError(e, "create the task"));
        }))
        .onFailure(e -> executions.decrementAndGet())
        .onSuccess(created -> {
          AUDIT.log(Level.INFO, () -> "task created id=" + created.taskId() + " owner=" + owner + " tool="
              + metadata.getString("tool") + " ttlMs=" + ttl);
          McpObserver observer = observers.get();
          if (observer != null) {
            observer.taskCreated(metadata.getString("wire"));
          }
        });
  }

  /**
   * Makes sure a task whose create failed with an unknown outcome does not exist, now or later, retrying with
   * growing pauses while the store is unavailable: its client was told it was not created, nothing runs its
   * handler, and were it to exist it would count against its owner's limit until it expired. Clustered, its
   * execution stays recorded until then, so should this instance die first, a sweeper settles it.
   */
  private void abandon(NewTask task, long since, long retryMs) {
    store.abandon(task).onComplete(ar -> {
      if (ar.succeeded()) {
        executionOver(task.taskId());
        AUDIT.log(Level.INFO, () -> "task abandoned id=" + task.taskId() + " owner=" + task.owner()
            + " reason=create-outcome-unknown");
        return;
      }
      if (closed) {
        // Stopping: the execution stays recorded, so once this instance's lease is gone a sweeper settles the
        // task should it exist (it then ends failed, and no longer counts against the limit).
        return;
      }
      // Past the task's TTL even a create that ran is gone; and a create does not wait that long in a connection.
      if (!unavailable(ar.cause()) || System.currentTimeMillis() + retryMs >= since + task.ttlMs()) {
        LOG.log(Level.ERROR, "Task " + task.taskId() + ": a create with an unknown outcome could not be undone: "
            + ar.cause().getMessage());
        executionOver(task.taskId());
        return;
      }
      vertx.setTimer(retryMs, t -> abandon(task, since, Math.min(2 * retryMs, MAX_SETTLE_RETRY_MS)));
    });
  }

  private static boolean unavailable(Throwable e) {
    return e instanceof TaskStoreException t && t.reason() == TaskStoreException.Reason.UNAVAILABLE;
  }

  /**
   * Registers the local handler of a task, so cancellation and input reach it; every task {@link #create}d here
   * is registered, and keeps its execution slot until it leaves.
   */
  public void register(TaskRun run) {
    runs.put(run.taskId(), run);
    run.expiryTimer(vertx.setTimer(Math.max(1, run.expiresAt() - System.currentTimeMillis()), t -> {
      // A task must not outlive its TTL in "working": the store forgets it, and the handler is told to stop.
      if (unregister(run)) {
        executionOver(run.taskId());
        run.cancel("The task expired");
        McpObserver observer = observers.get();
        if (observer != null) {
          observer.taskExpired(run.wire());
        }
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
  public Future<TaskUpdate> settle(TaskRun run, TaskStatus status, JsonObject result, JsonObject error, String message) {
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
        McpObserver observer = observers.get();
        if (observer != null) {
          observer.taskSettled(run.wire(), status);
        }
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
      if (!unavailable(e) || closed || System.currentTimeMillis() + retryMs >= run.expiresAt()) {
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
  public Future<TaskUpdate> cancel(String taskId, String owner, String reason) {
    return store.transition(taskId, ACTIVE, TaskStatus.CANCELLED, reason)
        .recover(e -> Future.failedFuture(TaskErrors.storeError(e, "cancel the task")))
        .onSuccess(update -> {
          if (update.applied()) {
            AUDIT.log(Level.INFO, () -> "task cancelled id=" + taskId + " by=" + owner);
            TaskRun run = runs.get(taskId);
            McpObserver observer = observers.get();
            if (observer != null) {
              observer.taskSettled(run != null ? run.wire() : wire(update), TaskStatus.CANCELLED);
            }
            if (run != null && unregister(run)) {
              executionOver(taskId);
              run.cancel(reason);
            }
          }
        });
  }

  /** The wire a task's metadata records, if the update carries the task. */
  private static String wire(TaskUpdate update) {
    TaskRecord task = update.task();
    return task == null || task.metadata() == null ? null : task.metadata().getString("wire");
  }

  /**
   * The task, if it exists and belongs to {@code owner}; otherwise -32602, the same for a task that never
   * existed, expired, or is someone else's, so nothing leaks.
   */
  public Future<TaskRecord> lookup(Object rawTaskId, String owner) {
    if (!(rawTaskId instanceof String taskId) || taskId.isEmpty()) {
      return Future.failedFuture(McpException.invalidParams("Invalid params: \"taskId\" must be a non-empty string"));
    }
    return store.get(taskId)
        .recover(e -> Future.failedFuture(TaskErrors.storeError(e, "read the task")))
        .compose(task -> ownedBy(task, taskId, owner));
  }

  private static Future<TaskRecord> ownedBy(TaskRecord task, String taskId, String owner) {
    if (task == null || !task.owner().equals(owner)) {
      if (task != null) {
        LOG.log(Level.INFO, () -> "Task " + taskId + " requested by " + owner + ", who does not own it");
      }
      return Future.failedFuture(McpException.invalidParams("Failed to retrieve task: Task not found"));
    }
    return Future.succeededFuture(task);
  }

  public void auditRetrieved(TaskRecord task, String owner) {
    AUDIT.log(Level.INFO, () -> "task result retrieved id=" + task.taskId() + " status=" + task.status().wireName()
        + " by=" + owner);
  }

  public TaskRun run(String taskId) {
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
  public Future<Void> drain(long timeoutMs) {
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
  public Runnable watch(String taskId, Consumer<TaskChange> onChange) {
    return watchers.watch(taskId, onChange);
  }

  private void onChange(TaskChange change) {
    if (change.kind() == TaskChange.Kind.RESYNC) {
      watchers.announce(change);
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
    watchers.announce(change);
  }

  Future<Void> close() {
    closed = true;
    if (sweeper != null) {
      sweeper.close();
    }
    return registration.future().isComplete() ? registration.future().compose(TaskStore.Registration::unregister)
        : Future.succeededFuture();
  }
}
