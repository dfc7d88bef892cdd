package io.mcpvertx.spi.tasks;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;

/**
 * Keeps tasks so that they outlive the request, the connection and the instance that created them. Both task
 * wires (2025-11-25 and the {@code io.modelcontextprotocol/tasks} extension) are served from one store.
 *
 * <p>Every change is atomic and conditional on the task's current state, so concurrent instances settle on one
 * outcome: terminal statuses never change, so a completion that arrives after a cancellation leaves the task
 * cancelled. The store stamps {@code lastUpdatedAt} on every applied change, and enforces the TTL itself: once
 * {@code createdAt + ttlMs} has passed, the task reads as missing everywhere (its lookups yield null and its
 * changes {@link TaskUpdate#missing()}), whether or not anything has purged it yet.
 *
 * <p>Access control is the caller's business: the store records the owner, lists by owner and counts active
 * tasks per owner, but {@link #get} returns a task whoever asks.
 *
 * <p>Implementations are thread-safe and never block the caller. A backing store that cannot be reached fails
 * the future with {@link TaskStoreException.Reason#UNAVAILABLE} within a bounded time.
 */
public interface TaskStore {

  /**
   * A new task id for a task of {@code owner}: unguessable, as {@link TaskIds#generate()} makes them (the
   * default). A store may add to it what it needs to place the task: the Redis store adds the hash slot of the
   * owner's keys, so a task and its owner's index share a slot of a Redis Cluster. {@link #create} may refuse an
   * id that this method did not make for the task's owner.
   */
  default String newTaskId(String owner) {
    return TaskIds.generate();
  }

  /**
   * Stores a new task in {@link TaskStatus#WORKING}. Once the future succeeds, a {@link #get} for the id resolves
   * on every instance sharing the store. Fails with {@link TaskStoreException.Reason#LIMIT_EXCEEDED} when the
   * owner is at its limit of non-terminal tasks, and {@link TaskStoreException.Reason#DUPLICATE_ID} when the id
   * is taken.
   */
  Future<TaskRecord> create(NewTask task);

  /**
   * Undoes a {@link #create} whose outcome the caller does not know (it failed with
   * {@link TaskStoreException.Reason#UNAVAILABLE}: a timeout, a lost connection, a replica that did not confirm):
   * afterwards no task with this id exists, and a create of it that is still on its way to the backing store will
   * not create it when it arrives. Removing a task frees its place under its owner's limit. Succeeds also when
   * there was nothing to undo. Callers use it for tasks whose client was told they were not created, and retry
   * it while it fails: until it succeeds the task may exist.
   */
  Future<Void> abandon(NewTask task);

  /** The task, or null when there is none (never created, expired, or purged). */
  Future<TaskRecord> get(String taskId);

  /**
   * Moves the task to {@code to} if its status is one of {@code from}; the status message is replaced (null
   * clears it). Moving to a terminal status drops the outstanding input requests. A task whose status is not in
   * {@code from} is left unchanged and returned with {@code applied} false.
   */
  Future<TaskUpdate> transition(String taskId, Set<TaskStatus> from, TaskStatus to, String statusMessage);

  /**
   * Settles a task that is not terminal yet: {@code status} is {@link TaskStatus#COMPLETED} or
   * {@link TaskStatus#FAILED}; exactly one of {@code result} and {@code error} is non-null. A terminal task is
   * left as it is ({@code applied} false).
   */
  Future<TaskUpdate> complete(String taskId, TaskStatus status, JsonObject result, JsonObject error,
      String statusMessage);

  /**
   * Adds outstanding input requests ({@code key → {method, params}}) and moves a working task to
   * {@link TaskStatus#INPUT_REQUIRED}. Keys are unique over the task's lifetime: a key used before fails the
   * future with {@link TaskStoreException.Reason#KEY_REUSED} and nothing is added. A terminal task is left as
   * it is.
   */
  Future<TaskUpdate> requestInput(String taskId, Map<String, JsonObject> requests, String statusMessage);

  /**
   * Records responses to outstanding input requests. Keys that are not outstanding (never issued, already
   * answered) are ignored. When no request remains outstanding the task goes back to {@link TaskStatus#WORKING};
   * after a partial answer it stays {@link TaskStatus#INPUT_REQUIRED}. {@code applied} says whether any response
   * was taken.
   */
  Future<TaskUpdate> respond(String taskId, Map<String, JsonObject> responses);

  /**
   * One page of the owner's tasks, oldest first. A null cursor starts at the beginning; a cursor the store did
   * not issue for this owner fails with {@link TaskStoreException.Reason#INVALID_CURSOR}.
   */
  Future<TaskPage> list(String owner, String cursor, int limit);

  /**
   * Registers a listener for changes to any task, made by any instance sharing the store. The handler runs on
   * the context that called this method. The registration holds until {@link Registration#unregister()}.
   */
  Future<Registration> listen(Handler<TaskChange> handler);

  /**
   * Succeeds when the store can serve requests now; a readiness check. Stores in this JVM's memory succeed at once
   * (the default); a remote store asks its server and fails fast when it cannot be reached.
   */
  default Future<Void> ping() {
    return Future.succeededFuture();
  }

  /** Releases connections and timers. */
  default Future<Void> close() {
    return Future.succeededFuture();
  }

  /** A listener's registration. */
  interface Registration {
    Future<Void> unregister();
  }
}
