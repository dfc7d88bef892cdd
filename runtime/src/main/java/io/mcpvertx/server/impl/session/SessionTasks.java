package io.mcpvertx.server.impl.session;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.SessionState;
import io.mcpvertx.server.impl.features.FeatureDispatcher;
import io.mcpvertx.server.impl.features.FeatureRegistry.RegisteredTool;
import io.mcpvertx.server.impl.features.FeatureRegistry;
import io.mcpvertx.server.impl.tasks.FailoverReruns;
import io.mcpvertx.server.impl.tasks.TaskEngine;
import io.mcpvertx.server.impl.tasks.TaskErrors;
import io.mcpvertx.server.impl.tasks.TaskJson;
import io.mcpvertx.server.impl.tasks.TaskRun;
import io.mcpvertx.server.impl.tracing.TaskSpans;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tracing.McpSpan;
import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskUpdate;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Consumer;

/**
 * Tasks as 2025-11-25 defines them (SEP-1686), for sessions of that revision: the client asks for a task with
 * {@code params.task}, polls {@code tasks/get}, waits with {@code tasks/result}, lists with {@code tasks/list} and
 * cancels with {@code tasks/cancel}.
 *
 * <p>A task belongs to the authenticated principal that created it, or, without authorization, to the session
 * that created it; {@code tasks/list} shows only the requester's. While a task needs input, its elicitation and
 * sampling requests wait until the client calls {@code tasks/result}, and travel on that request's stream, tagged
 * with the related-task {@code _meta}.
 */
final class SessionTasks {

  private final TaskEngine engine;
  private final FeatureRegistry registry;
  private final FeatureDispatcher features;
  private final int pageSize;

  SessionTasks(TaskEngine engine, FeatureRegistry registry, FeatureDispatcher features, int pageSize) {
    this.engine = engine;
    this.registry = registry;
    this.features = features;
    this.pageSize = pageSize;
  }

  /** The capability 2025-11-25 sessions are offered. */
  static String owner(SessionEngine session) {
    return session.principal().map(p -> p.key()).orElse("session:" + session.id());
  }

  /** {@code tools/call}: direct, or as a task when the client asked for one and the tool allows it. */
  Future<JsonObject> callTool(JsonObject params, SessionRequestContext ctx, SessionEngine session) {
    RegisteredTool tool = params.getValue("name") instanceof String name ? registry.snapshot().tools().get(name)
        : null;
    if (tool == null) {
      return features.callTool(params, ctx);
    }
    TaskSupport support = tool.tool().execution().taskSupport();
    Object task = params.getValue("task");
    if (task == null) {
      if (support == TaskSupport.REQUIRED) {
        throw new McpException(JsonRpcErrorCodes.METHOD_NOT_FOUND, "Tool " + tool.tool().name()
            + " must be called as a task (params.task)");
      }
      return features.callTool(params, ctx);
    }
    if (!(task instanceof JsonObject taskParams)) {
      throw McpException.invalidParams("Invalid params: \"task\" must be an object");
    }
    if (support == TaskSupport.FORBIDDEN) {
      throw new McpException(JsonRpcErrorCodes.METHOD_NOT_FOUND, "Tool " + tool.tool().name()
          + " does not support task-augmented execution");
    }
    Object ttl = taskParams.getValue("ttl");
    if (ttl != null && !(ttl instanceof Number n && n.doubleValue() >= 0)) {
      throw McpException.invalidParams("Invalid params: task.ttl must be a non-negative number");
    }
    JsonObject metadata = FailoverReruns.keep(engine, new JsonObject().put("wire", FailoverReruns.LEGACY_WIRE)
        .put("method", "tools/call").put("tool", tool.tool().name()).put("sessionId", session.id()),
        tool.tool().execution(), params, session.principal().orElse(null));
    TaskSpans.remember(metadata, ctx.span());
    Long requestedTtl = ttl == null ? null : ((Number) ttl).longValue();
    return engine.create(owner(session), requestedTtl, metadata).compose(created -> session.callOnContext(() -> {
      Run run = new Run(created, session);
      SessionRequestContext taskCtx = new SessionRequestContext(session, ctx.requestId(), ctx.method(), ctx.meta(),
          run.sink, run::ask);
      run.ctx = taskCtx;
      engine.register(run);
      session.taskRuns.add(run);
      McpSpan execution = TaskSpans.execution(session.sessions().tracing().get(), created, tool.tool().name(),
          session.id(), session.protocolVersion().map(ProtocolVersion::id).orElse(null));
      try (McpSpan.Scope scope = execution.makeCurrent()) {
        FeatureDispatcher.invoke(() -> features.callTool(params, taskCtx)).onComplete(ar -> {
          TaskSpans.end(execution, ar);
          run.finished(ar);
        });
      }
      return Future.succeededFuture(TaskJson.legacyCreated(created, tool.tool().execution().immediateResponse()));
    }));
  }

  /**
   * The session ended while handlers of its tasks run here (see {@code McpSession.endTasks}): tasks only it could
   * read are cancelled when it ended for good; the others' handlers get up to {@code timeoutMs} to finish, and
   * those still running then are failed. Runs on the session's context.
   */
  Future<Void> endTasks(SessionEngine session, String why, boolean forGood, long timeoutMs) {
    SessionTaskRuns runs = session.taskRuns;
    Future<Void> cancelled = Future.succeededFuture();
    if (forGood && session.principal().isEmpty()) {
      String reason = "The task was cancelled: its session ended (" + why + "), and only that session could read it";
      List<Future<TaskUpdate>> cancels = new ArrayList<>();
      runs.snapshot().forEach(run -> cancels.add(engine.cancel(run.taskId(), owner(session), reason)));
      // A cancel the store refused (unavailable) leaves its task working: it is failed below with the others.
      cancelled = Future.join(cancels).otherwiseEmpty().mapEmpty();
    }
    return cancelled.compose(v -> session.callOnContext(() -> {
      Promise<Void> waited = Promise.promise();
      long timer = engine.vertx().setTimer(Math.max(1, timeoutMs), t -> waited.tryComplete());
      runs.idle().onComplete(ar -> {
        engine.vertx().cancelTimer(timer);
        waited.tryComplete();
      });
      return waited.future();
    })).compose(v -> session.callOnContext(() -> {
      String message = "The task failed: its session ended (" + why + ") and its handler did not finish within "
          + timeoutMs + " ms";
      List<Future<TaskUpdate>> failed = new ArrayList<>();
      runs.snapshot().forEach(run -> failed.add(((Run) run).abort(message)));
      return Future.join(failed).otherwiseEmpty().mapEmpty();
    }));
  }

  /** {@code tasks/get}. */
  Future<JsonObject> get(JsonObject params, SessionRequestContext ctx, SessionEngine session) {
    return engine.lookup(params.getValue("taskId"), owner(session)).map(task -> TaskSpans.link(ctx.span(), task))
        .map(TaskJson::legacy);
  }

  /** {@code tasks/list}: the requester's tasks, oldest first, paged. */
  Future<JsonObject> list(JsonObject params, SessionEngine session) {
    Object cursor = params.getValue("cursor");
    if (cursor != null && !(cursor instanceof String)) {
      throw McpException.invalidParams("Invalid params: invalid cursor");
    }
    return engine.store().list(owner(session), (String) cursor, pageSize)
        .recover(e -> Future.failedFuture(TaskErrors.storeError(e, "list tasks")))
        .map(page -> {
          JsonArray tasks = new JsonArray();
          page.tasks().forEach(t -> tasks.add(TaskJson.legacy(t)));
          JsonObject result = new JsonObject().put("tasks", tasks);
          if (page.nextCursor() != null) {
            result.put("nextCursor", page.nextCursor());
          }
          return result;
        });
  }

  /** {@code tasks/cancel}: cancelled before the reply; a terminal task is refused with -32602. */
  Future<JsonObject> cancel(JsonObject params, SessionEngine session) {
    String owner = owner(session);
    return engine.lookup(params.getValue("taskId"), owner).compose(task -> {
      if (task.status().isTerminal()) {
        return Future.failedFuture(alreadyTerminal(task));
      }
      return engine.cancel(task.taskId(), owner, "The task was cancelled by request.").compose(update -> {
        if (!update.applied()) {
          return Future.failedFuture(update.task() == null
              ? McpException.invalidParams("Failed to retrieve task: Task not found") : alreadyTerminal(update.task()));
        }
        return Future.succeededFuture(TaskJson.legacy(update.task()));
      });
    });
  }

  private static McpException alreadyTerminal(TaskRecord task) {
    return McpException.invalidParams("Cannot cancel task: already in terminal status '"
        + task.status().wireName() + "'");
  }

  /**
   * {@code tasks/result}: waits until the task is terminal, then answers exactly as the augmented request would
   * have (its result with the related-task {@code _meta}, or its JSON-RPC error). While it waits, the task's
   * requests for input travel on this request's stream.
   */
  Future<JsonObject> result(JsonObject params, SessionRequestContext ctx, SessionEngine session) {
    String owner = owner(session);
    return engine.lookup(params.getValue("taskId"), owner).compose(task -> {
      TaskSpans.link(ctx.span(), task);
      if (task.status().isTerminal()) {
        return outcome(task, owner);
      }
      Promise<TaskRecord> terminal = Promise.promise();
      Consumer<TaskRecord> settle = current -> {
        if (current == null) {
          terminal.tryFail(McpException.invalidParams("Failed to retrieve task: Task has expired"));
        } else if (current.status().isTerminal()) {
          terminal.tryComplete(current);
        }
      };
      Runnable reread = () -> engine.store().get(task.taskId()).onComplete(ar -> {
        if (ar.succeeded()) {
          settle.accept(ar.result());
        }
      });
      Runnable unwatch = engine.watch(task.taskId(), change -> {
        if (change.kind() == TaskChange.Kind.RESYNC
            || (change.kind() == TaskChange.Kind.STATUS && change.status().isTerminal())) {
          reread.run();
        }
      });
      long timer = engine.vertx().setTimer(Math.max(1, task.expiresAt() - System.currentTimeMillis() + 1),
          t -> reread.run());
      TaskRun local = engine.run(task.taskId());
      Run run = local instanceof Run r && r.session == session ? r : null;
      if (run != null) {
        run.attach(ctx.sink());
      }
      ctx.onCancel(reason -> terminal.tryFail(new McpException(JsonRpcErrorCodes.REQUEST_CANCELLED, reason)));
      // The task may have ended between the lookup and the watch.
      reread.run();
      return terminal.future().onComplete(ar -> {
        unwatch.run();
        engine.vertx().cancelTimer(timer);
        if (run != null) {
          run.detach(ctx.sink());
        }
      }).compose(done -> outcome(done, owner));
    });
  }

  private Future<JsonObject> outcome(TaskRecord task, String owner) {
    engine.auditRetrieved(task, owner);
    if (task.error() != null) {
      return Future.failedFuture(new McpException(JsonRpcError.fromJson(task.error())));
    }
    if (task.result() == null) {
      return Future.failedFuture(McpException.invalidParams("Task " + task.taskId() + " was "
          + task.status().wireName() + " and has no result"));
    }
    JsonObject result = task.result().copy();
    JsonObject meta = result.getValue("_meta") instanceof JsonObject m ? m : new JsonObject();
    result.put("_meta", meta.put(TaskEngine.RELATED_TASK, new JsonObject().put("taskId", task.taskId())));
    return Future.succeededFuture(result);
  }

  /**
   * A 2025-11-25 task's handler running in its session. Its notifications go to the session's stream, tagged
   * with the task; its requests for input wait for a {@code tasks/result} of the session to carry them.
   * Confined to the session's context.
   */
  private final class Run extends TaskRun {

    private final SessionEngine session;
    private final JsonObject related;
    /** Sends the task's notifications to the session's own stream, tagged as related to the task. */
    final MessageSink sink;
    SessionRequestContext ctx;
    /** Requests for input waiting for a tasks/result stream, and the streams of those now waiting. */
    private final List<Queued> queued = new ArrayList<>();
    private final List<MessageSink> resultSinks = new ArrayList<>();
    private int outstanding;
    private boolean over;
    /**
     * What the task's requests for input are sent for, so they can be withdrawn with the task. Not the id of the
     * tools/call that started the task: the client may reuse that id once the call was answered.
     */
    private final JsonRpcId origin;

    /** A request for input not sent yet, and the answer its asker waits for. */
    private record Queued(Consumer<MessageSink> send, Promise<JsonObject> answer) {
    }

    Run(TaskRecord task, SessionEngine session) {
      super(task, session.context());
      this.session = session;
      this.related = new JsonObject().put("taskId", task.taskId());
      this.sink = message -> session.defaultSink().send(tag(message));
      this.origin = JsonRpcId.of("task:" + task.taskId());
    }

    private JsonRpcMessage tag(JsonRpcMessage message) {
      if (message instanceof JsonRpcNotification n) {
        return new JsonRpcNotification(n.method(), withRelated(n.paramsOrEmpty()));
      }
      if (message instanceof JsonRpcRequest r) {
        return new JsonRpcRequest(r.id(), r.method(), withRelated(r.paramsOrEmpty()));
      }
      return message;
    }

    private JsonObject withRelated(JsonObject params) {
      JsonObject copy = params.copy();
      JsonObject meta = copy.getValue("_meta") instanceof JsonObject m ? m : new JsonObject();
      return copy.put("_meta", meta.put(TaskEngine.RELATED_TASK, related.copy()));
    }

    /** A request for input: the task is input_required until every such request is answered. */
    Future<JsonObject> ask(String method, JsonObject params) {
      if (over || session.state() == SessionState.CLOSED) {
        return Future.failedFuture(new McpException(JsonRpcErrorCodes.REQUEST_CANCELLED,
            "The task's session is closed; nobody can answer " + method));
      }
      Promise<JsonObject> answer = Promise.promise();
      JsonObject tagged = withRelated(params);
      if (outstanding++ == 0) {
        move(EnumSet.of(TaskStatus.WORKING), TaskStatus.INPUT_REQUIRED);
      }
      // Through a tagging sink, so that the notifications/cancelled withdrawing the request names the task too.
      Consumer<MessageSink> send = target -> session.pending().send(method, tagged, m -> target.send(tag(m)), origin)
          .onComplete(answer);
      if (resultSinks.isEmpty()) {
        queued.add(new Queued(send, answer));
      } else {
        send.accept(resultSinks.get(resultSinks.size() - 1));
      }
      return answer.future().onComplete(ar -> session.onContext(() -> {
        if (--outstanding == 0 && !over) {
          move(EnumSet.of(TaskStatus.INPUT_REQUIRED), TaskStatus.WORKING);
        }
      }));
    }

    private void move(EnumSet<TaskStatus> from, TaskStatus to) {
      engine.store().transition(taskId(), from, to, null).onSuccess(this::announce);
    }

    /** {@code notifications/tasks/status}, for the session that created the task (optional in the spec). */
    private void announce(TaskUpdate update) {
      if (update.applied() && update.task() != null) {
        session.onContext(() -> {
          if (session.state() == SessionState.OPERATING) {
            session.defaultSink().send(new JsonRpcNotification("notifications/tasks/status",
                TaskJson.legacy(update.task())));
          }
        });
      }
    }

    void attach(MessageSink resultSink) {
      resultSinks.add(resultSink);
      List<Queued> waiting = new ArrayList<>(queued);
      queued.clear();
      waiting.forEach(ask -> ask.send().accept(resultSink));
    }

    void detach(MessageSink resultSink) {
      resultSinks.remove(resultSink);
    }

    /** Fails the task, its handler still running, with {@code message}; the handler is told to stop. */
    Future<TaskUpdate> abort(String message) {
      JsonObject error = TaskErrors.errorJson(McpException.internal(message), "tools/call");
      Future<TaskUpdate> stored = engine.settle(this, TaskStatus.FAILED, null, error, message);
      stored.onSuccess(this::announce);
      cancel(message);
      return stored;
    }

    @Override
    protected void cancel(String reason) {
      session.onContext(() -> {
        session.taskRuns.remove(this);
        ctx.cancel(reason);
        end(reason);
        // Those already sent are withdrawn, as for a cancelled request.
        session.pending().cancelFor(origin, reason);
        engine.store().get(taskId()).onSuccess(task -> {
          if (task != null) {
            announce(new TaskUpdate(true, task));
          }
        });
      });
    }

    /** No more input: requests not sent yet fail, so that whoever waits on them is not left waiting. */
    private void end(String reason) {
      over = true;
      List<Queued> dropped = new ArrayList<>(queued);
      queued.clear();
      dropped.forEach(ask -> ask.answer().tryFail(new McpException(JsonRpcErrorCodes.REQUEST_CANCELLED, reason)));
    }

    /** The handler finished: a result with isError fails the task, as 2025-11-25 says; an error fails it too. */
    void finished(AsyncResult<JsonObject> ar) {
      // The task ends behind the progress and logs its handler queued, as a response would.
      ctx.afterEmissions(() -> settle(ar));
    }

    private void settle(AsyncResult<JsonObject> ar) {
      session.taskRuns.remove(this);
      end("The task is over");
      ctx.finish();
      if (ar.succeeded()) {
        boolean isError = Boolean.TRUE.equals(ar.result().getValue("isError"));
        engine.settle(this, isError ? TaskStatus.FAILED : TaskStatus.COMPLETED, ar.result(), null,
            isError ? "The tool reported an error" : null).onSuccess(this::announce);
      } else {
        JsonObject error = TaskErrors.errorJson(ar.cause(), "tools/call");
        engine.settle(this, TaskStatus.FAILED, null, error, "Tool execution failed: " + error.getString("message"))
            .onSuccess(this::announce);
      }
    }
  }
}
