package io.mcpvertx.spi.tasks.memory;

import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskPage;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.TaskStoreException;
import io.mcpvertx.spi.tasks.TaskUpdate;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The zero-setup {@link TaskStore}: tasks in the memory of one process, shared by the verticles that hold it.
 *
 * <p>Each owner's tasks are guarded by the owner's entry in {@code owners}: every change to a task, to the
 * owner's active count and to the indexes that point at the task happens inside {@code owners.compute} for that
 * owner. Changes to one owner's tasks are serialized while other owners proceed; the critical sections do no I/O
 * and never wait. {@link #get} takes no lock: records are immutable and published through a volatile field.
 *
 * <p>A task sits in {@code tasks}, in its owner's creation order and (when it has a TTL) in {@code expiries}
 * from its creation until it is dropped, which happens only after it has expired. Every read and change checks
 * the clock, so an expired task reads as missing at once; the periodic purge, and a create that finds its owner
 * at the limit, then free it. Tasks without a TTL stay until the store is discarded: callers bound them by
 * capping the TTL they ask for. Because Vert.x cancels a verticle's timers when it is undeployed, create the
 * store outside any verticle, or in one that lives as long as the store's users.
 *
 * <p>Records go in and out as copies, so callers may change the JSON they passed or received. Arguments the SPI
 * rules out (a completion that does not settle, an empty set of input requests, a page limit below 1) throw
 * {@link IllegalArgumentException} at once rather than fail the future: they are the caller's bugs, not outcomes.
 */
public final class InMemoryTaskStore implements TaskStore {

  /** How often expired tasks are freed, unless told otherwise. */
  public static final long DEFAULT_PURGE_INTERVAL_MS = 30_000;

  private final Vertx vertx;
  private final LongSupplier clock;
  private final Map<String, Slot> tasks = new ConcurrentHashMap<>();
  private final Map<String, OwnerTasks> owners = new ConcurrentHashMap<>();
  private final ConcurrentSkipListMap<Expiry, Slot> expiries = new ConcurrentSkipListMap<>();
  private final AtomicLong sequences = new AtomicLong();
  private final ListCursors cursors = new ListCursors();
  private final ChangeListeners listeners;
  private volatile long purgeTimer = -1;

  /** A task and what the store remembers beside its record; all but {@code record} guarded by its owner. */
  private static final class Slot {
    final long sequence;
    final Set<String> usedKeys = new HashSet<>();
    volatile TaskRecord record;
    boolean dropped;

    Slot(long sequence, TaskRecord record) {
      this.sequence = sequence;
      this.record = record;
    }
  }

  /** One owner's tasks in creation order, and how many of them are not terminal (expired ones included). */
  private static final class OwnerTasks {
    final NavigableMap<Long, Slot> bySequence = new TreeMap<>();
    int active;
  }

  /** When a task expires; the sequence makes keys unique. */
  private record Expiry(long at, long sequence) implements Comparable<Expiry> {
    @Override
    public int compareTo(Expiry other) {
      int byTime = Long.compare(at, other.at);
      return byTime != 0 ? byTime : Long.compare(sequence, other.sequence);
    }
  }

  /** A conditional change: the record after it, or null when it does not apply. May refuse by throwing. */
  @FunctionalInterface
  private interface Change {
    TaskRecord apply(Slot slot, TaskRecord current, long now);
  }

  private InMemoryTaskStore(Vertx vertx, LongSupplier clock) {
    this.vertx = vertx;
    this.clock = clock;
    this.listeners = new ChangeListeners(vertx);
  }

  /** A store that purges expired tasks every {@link #DEFAULT_PURGE_INTERVAL_MS}. */
  public static InMemoryTaskStore create(Vertx vertx) {
    return create(vertx, DEFAULT_PURGE_INTERVAL_MS, System::currentTimeMillis);
  }

  /** A store that purges expired tasks every {@code purgeIntervalMs}. */
  public static InMemoryTaskStore create(Vertx vertx, long purgeIntervalMs) {
    return create(vertx, purgeIntervalMs, System::currentTimeMillis);
  }

  /** With an explicit clock (epoch milliseconds), for tests of expiry that do not wait. */
  public static InMemoryTaskStore create(Vertx vertx, long purgeIntervalMs, LongSupplier clock) {
    Objects.requireNonNull(vertx, "vertx");
    Objects.requireNonNull(clock, "clock");
    if (purgeIntervalMs < 1) {
      throw new IllegalArgumentException("purgeIntervalMs must be positive");
    }
    InMemoryTaskStore store = new InMemoryTaskStore(vertx, clock);
    store.purgeTimer = vertx.setPeriodic(purgeIntervalMs, id -> store.purge());
    return store;
  }

  @Override
  public Future<TaskRecord> create(NewTask task) {
    Objects.requireNonNull(task, "task");
    int limit = task.maxActivePerOwner();
    TaskStoreException[] refusal = new TaskStoreException[1];
    TaskRecord[] created = new TaskRecord[1];
    owners.compute(task.owner(), (owner, existing) -> {
      OwnerTasks own = existing == null ? new OwnerTasks() : existing;
      long now = clock.getAsLong();
      if (limit > 0 && own.active >= limit) {
        dropExpired(own, now);
      }
      if (limit > 0 && own.active >= limit) {
        refusal[0] = new TaskStoreException(TaskStoreException.Reason.LIMIT_EXCEEDED,
            "The owner has " + limit + " active tasks");
      } else {
        // The sequence is drawn under the owner's lock, so the owner's creation order has no gaps to fill later
        // and a cursor never skips a task created concurrently with the page it ended.
        TaskRecord record = new TaskRecord(task.taskId(), owner, TaskStatus.WORKING, null, now, now, task.ttlMs(),
            task.pollIntervalMs(), task.metadata().copy(), null, null, null, null);
        Slot slot = new Slot(sequences.incrementAndGet(), record);
        if (tasks.putIfAbsent(task.taskId(), slot) != null) {
          // An expired task keeps its id until it is purged; ids are random, so only deliberate reuse meets that.
          refusal[0] = new TaskStoreException(TaskStoreException.Reason.DUPLICATE_ID, "The task id is taken");
        } else {
          own.bySequence.put(slot.sequence, slot);
          own.active++;
          if (record.ttlMs() != null) {
            expiries.put(new Expiry(record.expiresAt(), slot.sequence), slot);
          }
          created[0] = record;
        }
      }
      return own.bySequence.isEmpty() ? null : own;
    });
    return refusal[0] != null ? Future.failedFuture(refusal[0]) : Future.succeededFuture(copy(created[0]));
  }

  /** Creates complete before their future does, so none is ever on its way: removing the task is enough. */
  @Override
  public Future<Void> abandon(NewTask task) {
    Objects.requireNonNull(task, "task");
    Slot slot = tasks.get(task.taskId());
    if (slot != null && slot.record.owner().equals(task.owner())) {
      owners.computeIfPresent(task.owner(), (owner, own) -> {
        if (!slot.dropped) {
          drop(own, slot);
        }
        return own.bySequence.isEmpty() ? null : own;
      });
    }
    return Future.succeededFuture();
  }

  @Override
  public Future<TaskRecord> get(String taskId) {
    Slot slot = tasks.get(taskId);
    TaskRecord record = slot == null ? null : slot.record;
    return Future.succeededFuture(record == null || expired(record, clock.getAsLong()) ? null : copy(record));
  }

  @Override
  public Future<TaskUpdate> transition(String taskId, Set<TaskStatus> from, TaskStatus to, String statusMessage) {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    return change(taskId, TaskChange.Kind.STATUS, (slot, current, now) -> {
      if (current.status().isTerminal() || !from.contains(current.status())) {
        return null;
      }
      Map<String, JsonObject> outstanding = to.isTerminal() ? Map.of() : current.inputRequests();
      return next(current, to, statusMessage, now, current.result(), current.error(), outstanding,
          current.inputResponses());
    });
  }

  @Override
  public Future<TaskUpdate> complete(String taskId, TaskStatus status, JsonObject result, JsonObject error,
      String statusMessage) {
    if (status != TaskStatus.COMPLETED && status != TaskStatus.FAILED) {
      throw new IllegalArgumentException("A task completes as completed or failed, not " + status);
    }
    if ((result == null) == (error == null)) {
      throw new IllegalArgumentException("Exactly one of result and error is required");
    }
    JsonObject storedResult = result == null ? null : result.copy();
    JsonObject storedError = error == null ? null : error.copy();
    return change(taskId, TaskChange.Kind.STATUS, (slot, current, now) -> current.status().isTerminal() ? null
        : next(current, status, statusMessage, now, storedResult, storedError, Map.of(), current.inputResponses()));
  }

  @Override
  public Future<TaskUpdate> requestInput(String taskId, Map<String, JsonObject> requests, String statusMessage) {
    if (requests.isEmpty()) {
      throw new IllegalArgumentException("No input requests");
    }
    Map<String, JsonObject> added = copy(requests);
    return change(taskId, TaskChange.Kind.INPUT_REQUESTED, (slot, current, now) -> {
      if (current.status().isTerminal()) {
        return null;
      }
      for (String key : added.keySet()) {
        if (slot.usedKeys.contains(key)) {
          throw new TaskStoreException(TaskStoreException.Reason.KEY_REUSED, "Input key already used: " + key);
        }
      }
      slot.usedKeys.addAll(added.keySet());
      Map<String, JsonObject> outstanding = new HashMap<>(current.inputRequests());
      outstanding.putAll(added);
      return next(current, TaskStatus.INPUT_REQUIRED, statusMessage, now, current.result(), current.error(),
          outstanding, current.inputResponses());
    });
  }

  @Override
  public Future<TaskUpdate> respond(String taskId, Map<String, JsonObject> responses) {
    Map<String, JsonObject> given = copy(responses);
    return change(taskId, TaskChange.Kind.INPUT_RESPONDED, (slot, current, now) -> {
      if (current.status().isTerminal()) {
        return null;
      }
      Map<String, JsonObject> outstanding = new HashMap<>(current.inputRequests());
      Map<String, JsonObject> answered = new HashMap<>(current.inputResponses());
      boolean taken = false;
      for (Map.Entry<String, JsonObject> response : given.entrySet()) {
        if (outstanding.remove(response.getKey()) != null) {
          answered.put(response.getKey(), response.getValue());
          taken = true;
        }
      }
      if (!taken) {
        return null;
      }
      TaskStatus status = outstanding.isEmpty() && current.status() == TaskStatus.INPUT_REQUIRED
          ? TaskStatus.WORKING : current.status();
      return next(current, status, current.statusMessage(), now, current.result(), current.error(), outstanding,
          answered);
    });
  }

  @Override
  public Future<TaskPage> list(String owner, String cursor, int limit) {
    Objects.requireNonNull(owner, "owner");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive");
    }
    long after = 0;
    if (cursor != null) {
      OptionalLong position = cursors.read(owner, cursor);
      if (position.isEmpty()) {
        return Future.failedFuture(new TaskStoreException(TaskStoreException.Reason.INVALID_CURSOR,
            "Unknown cursor"));
      }
      after = position.getAsLong();
    }
    long start = after;
    List<TaskRecord> page = new ArrayList<>();
    // Where the next page starts, when there is one: the position of the last task on this page.
    long[] next = {-1};
    owners.computeIfPresent(owner, (key, own) -> {
      long now = clock.getAsLong();
      long last = start;
      for (Slot slot : own.bySequence.tailMap(start, false).values()) {
        TaskRecord record = slot.record;
        if (expired(record, now)) {
          continue;
        }
        if (page.size() == limit) {
          next[0] = last;
          break;
        }
        page.add(record);
        last = slot.sequence;
      }
      return own;
    });
    page.replaceAll(InMemoryTaskStore::copy);
    return Future.succeededFuture(new TaskPage(page, next[0] < 0 ? null : cursors.issue(owner, next[0])));
  }

  @Override
  public Future<Registration> listen(Handler<TaskChange> handler) {
    return listeners.add(handler);
  }

  @Override
  public Future<Void> close() {
    long timer = purgeTimer;
    purgeTimer = -1;
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    return Future.succeededFuture();
  }

  /** Tasks held in memory, expired ones not yet purged included (for leak checks). */
  public int size() {
    return tasks.size();
  }

  /** Frees every expired task now; the purge timer calls this. */
  public void purge() {
    long now = clock.getAsLong();
    for (Slot slot : expiries.headMap(new Expiry(now, Long.MAX_VALUE), true).values()) {
      owners.computeIfPresent(slot.record.owner(), (owner, own) -> {
        if (!slot.dropped) {
          drop(own, slot);
        }
        return own.bySequence.isEmpty() ? null : own;
      });
    }
  }

  /**
   * Applies a change under the task's owner and announces it. Announcements are queued to the listeners' contexts
   * before the owner is released, so each listener sees a task's changes in the order they applied.
   */
  private Future<TaskUpdate> change(String taskId, TaskChange.Kind kind, Change change) {
    Slot slot = tasks.get(taskId);
    if (slot == null) {
      return Future.succeededFuture(TaskUpdate.missing());
    }
    TaskUpdate[] outcome = {TaskUpdate.missing()};
    try {
      owners.computeIfPresent(slot.record.owner(), (owner, own) -> {
        long now = clock.getAsLong();
        TaskRecord current = slot.record;
        if (slot.dropped || expired(current, now)) {
          return own;
        }
        TaskRecord next = change.apply(slot, current, now);
        if (next == null) {
          outcome[0] = new TaskUpdate(false, current);
          return own;
        }
        slot.record = next;
        if (!current.status().isTerminal() && next.status().isTerminal()) {
          own.active--;
        }
        listeners.announce(new TaskChange(kind, taskId, next.status()));
        if (kind != TaskChange.Kind.STATUS && next.status() != current.status()) {
          listeners.announce(new TaskChange(TaskChange.Kind.STATUS, taskId, next.status()));
        }
        outcome[0] = new TaskUpdate(true, next);
        return own;
      });
    } catch (TaskStoreException refused) {
      return Future.failedFuture(refused);
    }
    TaskRecord task = outcome[0].task();
    return Future.succeededFuture(task == null ? outcome[0] : new TaskUpdate(outcome[0].applied(), copy(task)));
  }

  /** Drops the owner's expired tasks; called under the owner's lock. */
  private void dropExpired(OwnerTasks own, long now) {
    List<Slot> gone = new ArrayList<>();
    for (Slot slot : own.bySequence.values()) {
      if (expired(slot.record, now)) {
        gone.add(slot);
      }
    }
    gone.forEach(slot -> drop(own, slot));
  }

  /** Forgets a task; called under its owner's lock. */
  private void drop(OwnerTasks own, Slot slot) {
    TaskRecord record = slot.record;
    slot.dropped = true;
    own.bySequence.remove(slot.sequence);
    tasks.remove(record.taskId(), slot);
    if (record.ttlMs() != null) {
      expiries.remove(new Expiry(record.expiresAt(), slot.sequence));
    }
    if (!record.status().isTerminal()) {
      own.active--;
    }
  }

  private static boolean expired(TaskRecord record, long now) {
    return now >= record.expiresAt();
  }

  /** The record after an applied change; {@code lastUpdatedAt} never goes back, even if the clock does. */
  private static TaskRecord next(TaskRecord current, TaskStatus status, String statusMessage, long now,
      JsonObject result, JsonObject error, Map<String, JsonObject> inputRequests,
      Map<String, JsonObject> inputResponses) {
    return new TaskRecord(current.taskId(), current.owner(), status, statusMessage, current.createdAt(),
        Math.max(now, current.lastUpdatedAt()), current.ttlMs(), current.pollIntervalMs(), current.metadata(),
        result, error, inputRequests, inputResponses);
  }

  private static TaskRecord copy(TaskRecord record) {
    return new TaskRecord(record.taskId(), record.owner(), record.status(), record.statusMessage(),
        record.createdAt(), record.lastUpdatedAt(), record.ttlMs(), record.pollIntervalMs(),
        record.metadata().copy(), record.result() == null ? null : record.result().copy(),
        record.error() == null ? null : record.error().copy(), copy(record.inputRequests()),
        copy(record.inputResponses()));
  }

  private static Map<String, JsonObject> copy(Map<String, JsonObject> json) {
    Map<String, JsonObject> copies = new HashMap<>();
    json.forEach((key, value) -> copies.put(key, value.copy()));
    return copies;
  }
}
