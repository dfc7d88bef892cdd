package io.mcpvertx.metrics.impl;

import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskPage;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.TaskUpdate;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;

/** A {@link TaskStore} whose operations are timed and counted by outcome. */
final class MeteredTaskStore implements TaskStore {

  private final TaskStore store;
  private final StoreMeter create;
  private final StoreMeter abandon;
  private final StoreMeter get;
  private final StoreMeter transition;
  private final StoreMeter complete;
  private final StoreMeter requestInput;
  private final StoreMeter respond;
  private final StoreMeter list;
  private final StoreMeter listen;
  private final StoreMeter ping;

  MeteredTaskStore(TaskStore store, MeterRegistry registry) {
    this.store = store;
    String backend = StoreMeter.backend(store);
    this.create = new StoreMeter(registry, "tasks", backend, "create");
    this.abandon = new StoreMeter(registry, "tasks", backend, "abandon");
    this.get = new StoreMeter(registry, "tasks", backend, "get");
    this.transition = new StoreMeter(registry, "tasks", backend, "transition");
    this.complete = new StoreMeter(registry, "tasks", backend, "complete");
    this.requestInput = new StoreMeter(registry, "tasks", backend, "request_input");
    this.respond = new StoreMeter(registry, "tasks", backend, "respond");
    this.list = new StoreMeter(registry, "tasks", backend, "list");
    this.listen = new StoreMeter(registry, "tasks", backend, "listen");
    this.ping = new StoreMeter(registry, "tasks", backend, "ping");
  }

  @Override
  public String newTaskId(String owner) {
    // The wrapped store shapes its ids (the Redis store puts the owner's hash slot in them) and refuses others.
    return store.newTaskId(owner);
  }

  @Override
  public Future<TaskRecord> create(NewTask task) {
    return create.time(() -> store.create(task));
  }

  @Override
  public Future<Void> abandon(NewTask task) {
    return abandon.time(() -> store.abandon(task));
  }

  @Override
  public Future<TaskRecord> get(String taskId) {
    return get.time(() -> store.get(taskId));
  }

  @Override
  public Future<TaskUpdate> transition(String taskId, Set<TaskStatus> from, TaskStatus to, String statusMessage) {
    return transition.time(() -> store.transition(taskId, from, to, statusMessage));
  }

  @Override
  public Future<TaskUpdate> complete(String taskId, TaskStatus status, JsonObject result, JsonObject error,
      String statusMessage) {
    return complete.time(() -> store.complete(taskId, status, result, error, statusMessage));
  }

  @Override
  public Future<TaskUpdate> requestInput(String taskId, Map<String, JsonObject> requests, String statusMessage) {
    return requestInput.time(() -> store.requestInput(taskId, requests, statusMessage));
  }

  @Override
  public Future<TaskUpdate> respond(String taskId, Map<String, JsonObject> responses) {
    return respond.time(() -> store.respond(taskId, responses));
  }

  @Override
  public Future<TaskPage> list(String owner, String cursor, int limit) {
    return list.time(() -> store.list(owner, cursor, limit));
  }

  @Override
  public Future<Registration> listen(Handler<TaskChange> handler) {
    return listen.time(() -> store.listen(handler));
  }

  @Override
  public Future<Void> ping() {
    return ping.time(store::ping);
  }

  @Override
  public Future<Void> close() {
    return store.close();
  }
}
