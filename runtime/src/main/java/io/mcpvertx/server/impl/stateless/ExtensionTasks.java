package io.mcpvertx.server.impl.stateless;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.impl.features.FeatureDispatcher;
import io.mcpvertx.server.impl.features.FeatureRegistry.RegisteredTool;
import io.mcpvertx.server.impl.features.FeatureRegistry;
import io.mcpvertx.server.impl.tasks.FailoverReruns;
import io.mcpvertx.server.impl.tasks.TaskEngine;
import io.mcpvertx.server.impl.tasks.TaskErrors;
import io.mcpvertx.server.impl.tasks.TaskJson;
import io.mcpvertx.server.impl.tasks.TaskRun;
import io.mcpvertx.server.impl.tracing.TaskSpans;
import io.mcpvertx.server.tracing.McpSpan;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.ToolExecution;
import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStoreException;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The tasks extension ({@code io.modelcontextprotocol/tasks}, SEP-2663) on the 2026-07-28 wire: the server
 * decides per call, by the tool's {@link ToolExecution}, whether a {@code tools/call} becomes a task; clients poll
 * with {@code tasks/get}, answer input requests with {@code tasks/update} and stop work with {@code tasks/cancel}.
 *
 * <p>A client must declare the extension in the request's own {@code _meta} capabilities; without it no task is
 * created and the tasks methods are refused with -32021. Without authorization a task belongs to nobody in
 * particular, and its unguessable id is what guards it (the extension allows this: there is no tasks/list).
 */
final class ExtensionTasks {

  private static final String ANONYMOUS = "anonymous";

  private final TaskEngine engine;
  private final FeatureRegistry registry;
  private final FeatureDispatcher features;

  ExtensionTasks(TaskEngine engine, FeatureRegistry registry, FeatureDispatcher features) {
    this.engine = engine;
    this.registry = registry;
    this.features = features;
  }

  static String owner(Principal principal) {
    return principal == null ? ANONYMOUS : principal.key();
  }

  static boolean declared(JsonObject clientCapabilities) {
    return clientCapabilities != null && clientCapabilities.getValue("extensions") instanceof JsonObject extensions
        && extensions.getValue(TaskEngine.EXTENSION) instanceof JsonObject;
  }

  static McpException missingExtension() {
    return new McpException(JsonRpcErrorCodes.CLIENT_CAPABILITY_MISSING,
        "Missing required client capability: the " + TaskEngine.EXTENSION + " extension",
        new JsonObject().put("requiredCapabilities", new JsonObject().put("extensions",
            new JsonObject().put(TaskEngine.EXTENSION, new JsonObject()))));
  }

  /**
   * A {@code tools/call}: answered directly, or as a task ({@code resultType: "task"}) when the tool allows it and
   * the client declared the extension. Results of direct calls are returned as the tool made them.
   */
  Future<JsonObject> callTool(JsonObject params, StatelessRequestContext ctx) {
    RegisteredTool tool = params.getValue("name") instanceof String name ? registry.snapshot().tools().get(name)
        : null;
    if (tool == null) {
      return features.callTool(params, ctx); // which refuses it, as it would any unknown name
    }
    if (!tool.tool().execution().allowsTasks()) {
      return features.callTool(tool, params, ctx);
    }
    ToolExecution execution = tool.tool().execution();
    if (!declared(ctx.client().capabilities())) {
      if (execution.taskSupport() == TaskSupport.REQUIRED) {
        throw missingExtension();
      }
      return features.callTool(tool, params, ctx);
    }
    String owner = owner(ctx.principal().orElse(null));
    JsonObject metadata = FailoverReruns.keep(engine, new JsonObject().put("wire", FailoverReruns.EXTENSION_WIRE)
        .put("method", "tools/call").put("tool", tool.tool().name()), execution, params,
        ctx.principal().orElse(null));
    TaskSpans.remember(metadata, ctx.span());
    Supplier<Future<JsonObject>> call = () -> FeatureDispatcher.invoke(() -> features.callTool(tool, params, ctx));
    if (execution.promoteAfterMs() == 0) {
      // The task exists before the handler runs, so everything it asks goes to the task.
      return engine.create(owner, null, metadata).compose(task -> {
        Promise<JsonObject> created = Promise.promise();
        ctx.context().runOnContext(v -> {
          Run run = new Run(task, ctx);
          ctx.promote(run::ask);
          engine.register(run);
          call.get().onComplete(run::finished);
          created.complete(TaskJson.extensionCreated(task));
        });
        return created.future();
      });
    }
    return runThenPromote(owner, metadata, execution.promoteAfterMs(), ctx, call);
  }

  /**
   * Runs the call directly; if it is still running after {@code promoteAfterMs}, it becomes a task and the client
   * gets the task. Questions asked before that are answered over multi round-trip requests, as for any call.
   */
  private Future<JsonObject> runThenPromote(String owner, JsonObject metadata, long promoteAfterMs,
      StatelessRequestContext ctx, Supplier<Future<JsonObject>> call) {
    Vertx vertx = engine.vertx();
    AtomicBoolean decided = new AtomicBoolean();
    Promise<JsonObject> reply = Promise.promise();
    Promise<Run> promoted = Promise.promise();
    Future<JsonObject> outcome = call.get();
    long timer = vertx.setTimer(promoteAfterMs, t -> {
      if (!decided.compareAndSet(false, true)) {
        return;
      }
      if (!ctx.inputRequests().isEmpty() || ctx.invalidAnswer() != null) {
        // The handler went on without an answer it asked for (or past a malformed one): the call is answered
        // input_required (or -32602) whatever it does next, so that is answered now and the handler stopped,
        // rather than left running as a task nobody learns of, holding one of its owner's slots.
        ctx.cancel("The call needs input before it can go on");
        reply.fail(ctx.invalidAnswer() != null ? ctx.invalidAnswer()
            : new InputRequired(ctx.inputRequests().keySet().iterator().next()));
        return;
      }
      // Questions asked from now on wait for the task to exist, then go to it.
      ctx.promote((key, method, params) -> promoted.future().compose(run -> run.ask(key, method, params)));
      engine.create(owner, null, metadata).onComplete(ar -> {
        if (ar.failed()) {
          ctx.cancelTask("The call could not become a task");
          promoted.fail(ar.cause());
          reply.fail(ar.cause());
          return;
        }
        Run run = new Run(ar.result(), ctx);
        engine.register(run);
        promoted.complete(run);
        reply.complete(TaskJson.extensionCreated(ar.result()));
        outcome.onComplete(run::finished);
      });
    });
    outcome.onComplete(ar -> {
      if (decided.compareAndSet(false, true)) {
        vertx.cancelTimer(timer);
        reply.handle(ar);
      }
    });
    return reply.future();
  }

  /**
   * {@code tasks/get}: the task with its result, error or open input requests inlined. Its {@code span} (that of
   * the request) is linked to the span that created the task, as are those of the other steps below.
   */
  Future<JsonObject> get(JsonObject params, JsonObject capabilities, Principal principal, McpSpan span) {
    requireDeclared(capabilities);
    String owner = owner(principal);
    return engine.lookup(params.getValue("taskId"), owner).map(task -> TaskSpans.link(span, task)).map(task -> {
      if (task.status().isTerminal()) {
        engine.auditRetrieved(task, owner);
      }
      return TaskJson.detailed(task);
    });
  }

  /**
   * {@code tasks/update}: records answers to open input requests; others are ignored. An acknowledgement, or
   * -32602 (nothing recorded) when an answer is not a result of the question it answers.
   */
  Future<JsonObject> update(JsonObject params, JsonObject capabilities, Principal principal, McpSpan span) {
    requireDeclared(capabilities);
    if (!(params.getValue("inputResponses") instanceof JsonObject responses)) {
      throw McpException.invalidParams("Invalid params: \"inputResponses\" must be an object");
    }
    Map<String, JsonObject> answers = new HashMap<>();
    for (String key : responses.fieldNames()) {
      if (!(responses.getValue(key) instanceof JsonObject answer)) {
        throw McpException.invalidParams("Invalid params: inputResponses." + key + " must be an object");
      }
      answers.put(key, answer);
    }
    return engine.lookup(params.getValue("taskId"), owner(principal)).compose(task -> {
      TaskSpans.link(span, task);
      // An answer that is not a result of its open question is refused whole, as in a multi round-trip, and the
      // question stays open: recorded, it would use up the key and fail the task the client could still finish.
      for (Map.Entry<String, JsonObject> answer : answers.entrySet()) {
        JsonObject question = task.inputRequests().get(answer.getKey());
        String problem = question == null ? null
            : StatelessRequestContext.answerProblem(question.getString("method", ""), answer.getValue());
        if (problem != null) {
          return Future.failedFuture(McpException.invalidParams("Invalid params: inputResponses." + answer.getKey()
              + " " + problem));
        }
      }
      return Future.succeededFuture(task);
    }).compose(task -> answers.isEmpty()
        ? Future.succeededFuture(new JsonObject())
        : engine.store().respond(task.taskId(), answers)
            .recover(e -> Future.failedFuture(TaskErrors.storeError(e, "record the input responses")))
            .map(update -> new JsonObject()));
  }

  /** {@code tasks/cancel}: an acknowledgement; the task stops cooperatively. Terminal tasks are left alone. */
  Future<JsonObject> cancel(JsonObject params, JsonObject capabilities, Principal principal, McpSpan span) {
    requireDeclared(capabilities);
    String owner = owner(principal);
    return engine.lookup(params.getValue("taskId"), owner).map(task -> TaskSpans.link(span, task))
        .compose(task -> task.status().isTerminal()
        ? Future.succeededFuture(new JsonObject())
        : engine.cancel(task.taskId(), owner, "The task was cancelled by request.").map(update -> new JsonObject()));
  }

  private static void requireDeclared(JsonObject capabilities) {
    if (!declared(capabilities)) {
      throw missingExtension();
    }
  }

  /**
   * A call that became a task, running here: its questions become the task's input requests, and the answers
   * that {@code tasks/update} records (on any instance) come back through the store's announcements.
   */
  private final class Run extends TaskRun {

    private final StatelessRequestContext ctx;
    /** Questions waiting for their answer, by key; touched only on the run's context. */
    private final Map<String, Promise<JsonObject>> waiting = new HashMap<>();

    Run(TaskRecord task, StatelessRequestContext ctx) {
      super(task, ctx.context());
      this.ctx = ctx;
    }

    Future<JsonObject> ask(String key, String method, JsonObject params) {
      Promise<JsonObject> answer = Promise.promise();
      context().runOnContext(v -> {
        if (waiting.containsKey(key)) {
          answer.fail(McpException.internal("Internal error: the handler asked twice under the key " + key));
          return;
        }
        waiting.put(key, answer);
        JsonObject request = new JsonObject().put("method", method).put("params", params);
        engine.store().requestInput(taskId(), Map.of(key, request), null).onComplete(ar -> {
          if (ar.failed()) {
            waiting.remove(key);
            answer.tryFail(ar.cause() instanceof TaskStoreException e
                && e.reason() == TaskStoreException.Reason.KEY_REUSED
                ? McpException.internal("Internal error: input request key " + key + " was used before in this task")
                : TaskErrors.storeError(ar.cause(), "record the input request"));
          } else if (!ar.result().applied()) {
            waiting.remove(key);
            answer.tryFail(new McpException(JsonRpcErrorCodes.REQUEST_CANCELLED, "The task is over"));
          } else {
            deliver(ar.result().task());
          }
        });
      });
      return answer.future();
    }

    @Override
    protected void onChange(TaskChange change) {
      if (waiting.isEmpty() || change.kind() == TaskChange.Kind.INPUT_REQUESTED) {
        return;
      }
      engine.store().get(taskId()).onSuccess(this::deliver);
    }

    /** Hands the recorded answers to the questions waiting for them. */
    private void deliver(TaskRecord task) {
      if (task == null || task.status().isTerminal()) {
        failWaiting("The task is over");
        return;
      }
      task.inputResponses().forEach((key, response) -> {
        Promise<JsonObject> answer = waiting.remove(key);
        if (answer != null) {
          answer.tryComplete(response);
        }
      });
    }

    private void failWaiting(String reason) {
      waiting.values().forEach(p -> p.tryFail(new McpException(JsonRpcErrorCodes.REQUEST_CANCELLED, reason)));
      waiting.clear();
    }

    @Override
    protected void cancel(String reason) {
      context().runOnContext(v -> {
        failWaiting(reason);
        ctx.cancelTask(reason);
      });
    }

    /** The handler finished: store its outcome. A tool result with isError is completed work here. */
    void finished(AsyncResult<JsonObject> ar) {
      ctx.finishTask();
      context().runOnContext(v -> failWaiting("The task is over"));
      if (ar.succeeded()) {
        JsonObject result = ar.result().copy().put("resultType", "complete");
        engine.settle(this, TaskStatus.COMPLETED, result, null, null);
      } else {
        JsonObject error = TaskErrors.errorJson(ar.cause(), "tools/call");
        engine.settle(this, TaskStatus.FAILED, null, error, "Tool execution failed: " + error.getString("message"));
      }
    }
  }

  /** For subscriptions: the detailed task, if the caller owns it. */
  Future<JsonObject> detailedFor(String taskId, String owner) {
    return engine.store().get(taskId).map(task -> task == null || !task.owner().equals(owner) ? null
        : TaskJson.detailed(task));
  }

  TaskEngine engine() {
    return engine;
  }
}
