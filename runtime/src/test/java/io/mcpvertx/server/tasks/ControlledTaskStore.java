package io.mcpvertx.server.tasks;

import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskPage;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.TaskStoreException;
import io.mcpvertx.spi.tasks.TaskUpdate;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A real task store (usually the in-memory one) with two things a backing store over the network does that the
 * test controls: an outage ({@link #down}), and listener registrations that take a while to be in place
 * ({@link #holdListeners}): until {@link #releaseListeners()}, nothing is announced to them.
 */
final class ControlledTaskStore implements TaskStore {

  private final TaskStore delegate;
  volatile boolean down;
  /** Every task id read through {@link #get}, and how many reads there were, down or not. */
  final Set<String> read = ConcurrentHashMap.newKeySet();
  final AtomicInteger reads = new AtomicInteger();
  private boolean holding;
  private final List<Runnable> held = new ArrayList<>();

  ControlledTaskStore(TaskStore delegate) {
    this.delegate = delegate;
  }

  /** Listener registrations from now on stay pending until {@link #releaseListeners()}. */
  synchronized ControlledTaskStore holdListeners() {
    holding = true;
    return this;
  }

  synchronized void releaseListeners() {
    holding = false;
    held.forEach(Runnable::run);
    held.clear();
  }

  private <T> Future<T> unlessDown(Supplier<Future<T>> call) {
    return down ? Future.failedFuture(new TaskStoreException(TaskStoreException.Reason.UNAVAILABLE,
        "the disk is on fire")) : call.get();
  }

  @Override
  public Future<TaskRecord> create(NewTask task) {
    return unlessDown(() -> delegate.create(task));
  }

  @Override
  public Future<Void> abandon(NewTask task) {
    return unlessDown(() -> delegate.abandon(task));
  }

  @Override
  public Future<TaskRecord> get(String taskId) {
    read.add(taskId);
    reads.incrementAndGet();
    return unlessDown(() -> delegate.get(taskId));
  }

  @Override
  public Future<TaskUpdate> transition(String taskId, Set<TaskStatus> from, TaskStatus to,
      String statusMessage) {
    return unlessDown(() -> delegate.transition(taskId, from, to, statusMessage));
  }

  @Override
  public Future<TaskUpdate> complete(String taskId, TaskStatus status, JsonObject result,
      JsonObject error, String statusMessage) {
    return unlessDown(() -> delegate.complete(taskId, status, result, error, statusMessage));
  }

  @Override
  public Future<TaskUpdate> requestInput(String taskId, Map<String, JsonObject> requests,
      String statusMessage) {
    return unlessDown(() -> delegate.requestInput(taskId, requests, statusMessage));
  }

  @Override
  public Future<TaskUpdate> respond(String taskId, Map<String, JsonObject> responses) {
    return unlessDown(() -> delegate.respond(taskId, responses));
  }

  @Override
  public Future<TaskPage> list(String owner, String cursor, int limit) {
    return unlessDown(() -> delegate.list(owner, cursor, limit));
  }

  @Override
  public synchronized Future<Registration> listen(Handler<TaskChange> handler) {
    if (!holding) {
      return delegate.listen(handler);
    }
    // The registration is made on the caller's context once released, as a store's subscription completes there.
    Context context = Vertx.currentContext();
    Promise<Registration> registration = Promise.promise();
    held.add(() -> context.runOnContext(v -> delegate.listen(handler).onComplete(registration)));
    return registration.future();
  }

  @Override
  public Future<Void> close() {
    return delegate.close();
  }
}
