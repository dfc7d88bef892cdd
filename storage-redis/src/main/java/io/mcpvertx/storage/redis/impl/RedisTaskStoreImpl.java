package io.mcpvertx.storage.redis.impl;

import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskPage;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStoreException;
import io.mcpvertx.spi.tasks.TaskStoreException.Reason;
import io.mcpvertx.spi.tasks.TaskUpdate;
import io.mcpvertx.storage.redis.RedisStoreOptions;
import io.mcpvertx.storage.redis.RedisTaskStore;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@link RedisTaskStore}: each call is one script (or one command for {@link #get}) bounded by the command
 * timeout, whose reply carries the task as it is afterwards. Stateless apart from the client and the
 * {@link ChangeSubscriber}: safe from any thread.
 */
public final class RedisTaskStoreImpl implements RedisTaskStore {

  private static final LuaScript CREATE = LuaScript.load("task-common", "task-create");
  private static final LuaScript TRANSITION = LuaScript.load("task-common", "task-transition");
  private static final LuaScript COMPLETE = LuaScript.load("task-common", "task-complete");
  private static final LuaScript REQUEST_INPUT = LuaScript.load("task-common", "task-request-input");
  private static final LuaScript RESPOND = LuaScript.load("task-common", "task-respond");
  private static final LuaScript LIST = LuaScript.load("task-list");
  private static final LuaScript ABANDON = LuaScript.load("task-abandon");
  /** How long an abandon marker stays at most: longer than any create can sit in a connection's buffer. */
  static final long MAX_MARKER_MS = 24L * 60 * 60 * 1000;

  /**
   * TTLs beyond this (about a thousand years) set no Redis expiry: the scripts' doubles stay exact and Redis
   * accepts the time. The record still reports the TTL asked for.
   */
  static final long MAX_EXPIRING_TTL_MS = 1000L * 365 * 24 * 60 * 60 * 1000;

  private final Vertx vertx;
  private final Redis redis;
  private final boolean ownsClient;
  private final RedisKeys keys;
  private final Bounded bounded;
  private final int waitReplicas;
  private final long waitTimeoutMs;
  private final ChangeSubscriber subscriber;

  public RedisTaskStoreImpl(Vertx vertx, Redis redis, RedisStoreOptions options, boolean ownsClient) {
    this.vertx = Objects.requireNonNull(vertx, "vertx");
    this.redis = Objects.requireNonNull(redis, "redis");
    this.ownsClient = ownsClient;
    this.keys = new RedisKeys(options.getKeyPrefix());
    this.bounded = new Bounded(options.getCommandTimeoutMs(),
        cause -> new TaskStoreException(Reason.UNAVAILABLE, "task store unavailable: " + cause),
        failure -> failure instanceof TaskStoreException e && e.reason() == Reason.UNAVAILABLE);
    this.waitReplicas = options.getWaitReplicas();
    this.waitTimeoutMs = options.getWaitTimeoutMs();
    this.subscriber = new ChangeSubscriber(vertx.getOrCreateContext(), redis, keys.taskChanges(), bounded,
        options.getReconnectDelayMs(), options.getPingIntervalMs());
  }

  @Override
  public Future<TaskRecord> create(NewTask task) {
    Objects.requireNonNull(task, "task");
    String owner = task.owner();
    String tag = RedisKeys.ownerSlotTag(owner);
    if (!tag.equals(RedisKeys.taskSlotTag(task.taskId()))) {
      return foreignId(task);
    }
    List<String> k = List.of(keys.task(task.taskId()), keys.ownerTasks(owner), keys.ownerExpiries(owner),
        keys.ownerActive(owner), keys.abandonedTask(task.taskId()));
    Long ttl = task.ttlMs();
    Object[] args = {task.taskId(), owner, ttl == null ? "" : ttl,
        ttl != null && ttl <= MAX_EXPIRING_TTL_MS ? 1 : 0, task.pollIntervalMs() == null ? "" : task.pollIntervalMs(),
        task.metadata().encode(), task.maxActivePerOwner(), RedisKeys.segment(task.taskId()),
        keys.taskKeyPrefix(tag)};
    if (waitReplicas == 0) {
      return bounded.call(CREATE.run(redis, k, args)).compose(RedisTaskStoreImpl::created);
    }
    // WAIT counts the replicas that have this connection's writes, so it goes in one batch with the create.
    Request wait = Request.cmd(Command.WAIT).arg(waitReplicas).arg(waitTimeoutMs);
    Future<List<Response>> batch = redis.batch(List.of(CREATE.evalsha(k, args), wait))
        .recover(failure -> LuaScript.isNoScript(failure)
            ? redis.batch(List.of(CREATE.eval(k, args), wait))
            : Future.failedFuture(failure));
    return bounded.call(batch, bounded.timeoutMs() + waitTimeoutMs).compose(replies -> {
      Response reply = replies.get(0);
      long acknowledged = replies.get(1).toLong();
      if ("ok".equals(reply.get(0).toString()) && acknowledged < waitReplicas) {
        return Future.failedFuture(bounded.unavailable("the task was written but " + acknowledged + " of "
            + waitReplicas + " replicas acknowledged it within " + waitTimeoutMs + " ms"));
      }
      return created(reply);
    });
  }

  @Override
  public String newTaskId(String owner) {
    return RedisKeys.newTaskId(Objects.requireNonNull(owner, "owner"));
  }

  /**
   * A create whose id was not made for its owner: the task's keys would land in another slot than the owner's
   * index. An id that is taken is refused as a duplicate, as any other create of it; anything else is the
   * caller's error.
   */
  private Future<TaskRecord> foreignId(NewTask task) {
    Request exists = Request.cmd(Command.EXISTS).arg(keys.task(task.taskId()));
    return bounded.call(redis.send(exists)).compose(reply -> reply.toLong() > 0
        ? Future.failedFuture(new TaskStoreException(Reason.DUPLICATE_ID, "The task id is taken"))
        : Future.failedFuture(new IllegalArgumentException(
            "Task ids of this store come from newTaskId(owner), for the task's owner")));
  }

  private static Future<TaskRecord> created(Response reply) {
    switch (reply.get(0).toString()) {
      case "ok":
        return Future.succeededFuture(TaskCodec.record(reply.get(1)));
      case "duplicate":
        return Future.failedFuture(new TaskStoreException(Reason.DUPLICATE_ID, "The task id is taken"));
      case "limit":
        return Future.failedFuture(new TaskStoreException(Reason.LIMIT_EXCEEDED,
            "The owner is at its limit of active tasks"));
      default:
        return Future.failedFuture(new IllegalStateException("unexpected reply " + reply));
    }
  }

  @Override
  public Future<Void> abandon(NewTask task) {
    Objects.requireNonNull(task, "task");
    String owner = task.owner();
    List<String> k = List.of(keys.task(task.taskId()), keys.abandonedTask(task.taskId()), keys.ownerTasks(owner),
        keys.ownerExpiries(owner), keys.ownerActive(owner));
    // A create arriving after its task's TTL would make a task already past its time; the marker outlives that.
    long markerMs = task.ttlMs() == null ? MAX_MARKER_MS : Math.max(60_000, Math.min(task.ttlMs(), MAX_MARKER_MS));
    return bounded.call(ABANDON.run(redis, k, owner, RedisKeys.segment(task.taskId()), markerMs)).mapEmpty();
  }

  @Override
  public Future<TaskRecord> get(String taskId) {
    return bounded.call(redis.send(Request.cmd(Command.GET).arg(keys.task(taskId)))).map(TaskCodec::record);
  }

  @Override
  public Future<TaskUpdate> transition(String taskId, Set<TaskStatus> from, TaskStatus to, String statusMessage) {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    String fromNames = from.stream().map(TaskStatus::wireName).collect(Collectors.joining(","));
    return change(TRANSITION, taskId, fromNames, to.wireName(), statusMessage == null ? 0 : 1,
        statusMessage == null ? "" : statusMessage, keys.taskChanges(), RedisKeys.segment(taskId));
  }

  @Override
  public Future<TaskUpdate> complete(String taskId, TaskStatus status, JsonObject result, JsonObject error,
      String statusMessage) {
    if (status != TaskStatus.COMPLETED && status != TaskStatus.FAILED) {
      return Future.failedFuture(new IllegalArgumentException(
          "A task completes as completed or failed, not " + status));
    }
    if ((result == null) == (error == null)) {
      return Future.failedFuture(new IllegalArgumentException("Exactly one of result and error is required"));
    }
    return change(COMPLETE, taskId, status.wireName(), result == null ? "" : result.encode(),
        error == null ? "" : error.encode(), statusMessage == null ? 0 : 1,
        statusMessage == null ? "" : statusMessage, keys.taskChanges(), RedisKeys.segment(taskId));
  }

  @Override
  public Future<TaskUpdate> requestInput(String taskId, Map<String, JsonObject> requests, String statusMessage) {
    if (requests.isEmpty()) {
      return Future.failedFuture(new IllegalArgumentException("No input requests"));
    }
    List<Object> args = new ArrayList<>(List.of(statusMessage == null ? 0 : 1,
        statusMessage == null ? "" : statusMessage, keys.taskChanges()));
    requests.forEach((key, request) -> {
      args.add(key);
      args.add(request.encode());
    });
    return change(REQUEST_INPUT, taskId, args.toArray());
  }

  @Override
  public Future<TaskUpdate> respond(String taskId, Map<String, JsonObject> responses) {
    List<Object> args = new ArrayList<>(List.of(keys.taskChanges()));
    responses.forEach((key, response) -> {
      args.add(key);
      args.add(response.encode());
    });
    return change(RESPOND, taskId, args.toArray());
  }

  private Future<TaskUpdate> change(LuaScript script, String taskId, Object... args) {
    return bounded.call(script.run(redis, List.of(keys.task(taskId)), args)).compose(reply -> {
      switch (reply.get(0).toString()) {
        case "missing":
          return Future.succeededFuture(TaskUpdate.missing());
        case "nop":
          return Future.succeededFuture(new TaskUpdate(false, TaskCodec.record(reply.get(1))));
        case "ok":
          return Future.succeededFuture(new TaskUpdate(true, TaskCodec.record(reply.get(1))));
        case "reused":
          return Future.failedFuture(new TaskStoreException(Reason.KEY_REUSED,
              "Input key already used: " + reply.get(1)));
        default:
          return Future.failedFuture(new IllegalStateException("unexpected reply " + reply));
      }
    });
  }

  @Override
  public Future<TaskPage> list(String owner, String cursor, int limit) {
    Objects.requireNonNull(owner, "owner");
    if (limit < 1) {
      return Future.failedFuture(new IllegalArgumentException("limit must be positive"));
    }
    String after = "";
    if (cursor != null) {
      after = ListCursor.read(owner, cursor);
      if (after == null) {
        return Future.failedFuture(new TaskStoreException(Reason.INVALID_CURSOR, "Unknown cursor"));
      }
    }
    // Entries of expired tasks are skipped and removed; looking at a bounded number keeps the script short.
    long budget = Math.min(10_000L, 4L * limit + 64);
    return bounded.call(LIST.run(redis, List.of(keys.ownerTasks(owner), keys.ownerExpiries(owner)), after, limit,
            keys.taskKeyPrefix(RedisKeys.ownerSlotTag(owner)), owner, budget))
        .map(reply -> {
          List<TaskRecord> tasks = new ArrayList<>(reply.size() - 1);
          for (int i = 1; i < reply.size(); i++) {
            tasks.add(TaskCodec.record(reply.get(i)));
          }
          String next = reply.get(0).toString();
          return new TaskPage(tasks, next.isEmpty() ? null : ListCursor.issue(owner, next));
        });
  }

  @Override
  public Future<Registration> listen(Handler<TaskChange> handler) {
    Objects.requireNonNull(handler, "handler");
    Context caller = Vertx.currentContext();
    return subscriber.listen(caller != null ? caller : vertx.getOrCreateContext(), handler);
  }

  @Override
  public Future<Void> ping() {
    return bounded.call(redis.send(Request.cmd(Command.PING))).mapEmpty();
  }

  @Override
  public Future<Void> close() {
    return subscriber.close().compose(v -> ownsClient ? redis.close() : Future.succeededFuture());
  }
}
