package io.mcpvertx.server.impl.tasks;

import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.impl.features.BlockingRunner;
import io.mcpvertx.server.impl.features.FeatureDispatcher;
import io.mcpvertx.server.impl.features.FeatureRegistry.RegisteredTool;
import io.mcpvertx.server.impl.features.FeatureRegistry;
import io.mcpvertx.server.impl.tracing.TaskSpans;
import io.mcpvertx.server.impl.tracing.TracerSlot;
import io.mcpvertx.server.tools.ToolExecution;
import io.mcpvertx.server.tracing.McpSpan;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.EnumSet;

/**
 * Runs a task's handler again, from the start, on this instance after the instance running it died: only for tools
 * that declare it ({@link ToolExecution#rerunOnFailover()}), registered here, whose call's arguments were kept
 * with the task ({@link #keep}). The run has no client ({@link DetachedRequestContext}) and settles the task as the
 * wire it was created on would: over 2025-11-25 a result with {@code isError} fails the task, over the tasks
 * extension it completes it.
 *
 * <p>Thread-safe: it holds no state of its own; each run is confined to the context it is given.
 */
public final class FailoverReruns implements OrphanSweeper.Rerunner {

  public static final String LEGACY_WIRE = "2025-11-25";
  public static final String EXTENSION_WIRE = "extension";

  private static final Logger LOG = LoggerFactory.getLogger(FailoverReruns.class);

  private final TaskEngine engine;
  private final FeatureRegistry registry;
  private final FeatureDispatcher features;
  private final BlockingRunner blocking;

  private final TracerSlot tracing;

  public FailoverReruns(TaskEngine engine, FeatureRegistry registry, FeatureDispatcher features, BlockingRunner blocking,
      TracerSlot tracing) {
    this.tracing = tracing;
    this.engine = engine;
    this.registry = registry;
    this.features = features;
    this.blocking = blocking;
  }

  /**
   * Adds to a new task's metadata what running it again takes, when its tool may be run again: the call's
   * arguments (bounded already by the request body limit they arrived under) and the caller's principal. Other
   * tools' tasks keep neither, nor do servers that are no instance of a deployment (nobody could run them
   * again): arguments may be sensitive, and are kept no longer than needed.
   */
  public static JsonObject keep(TaskEngine engine, JsonObject metadata, ToolExecution execution, JsonObject params,
      Principal principal) {
    if (!engine.clustered() || !execution.rerunOnFailover()) {
      return metadata;
    }
    Object arguments = params.getValue("arguments");
    if (arguments != null && !(arguments instanceof JsonObject)) {
      // The call fails on them at once; there is nothing to run again.
      return metadata;
    }
    metadata.put("arguments", arguments == null ? new JsonObject() : ((JsonObject) arguments).copy());
    if (principal != null) {
      metadata.put("principal", principal.toJson());
    }
    return metadata;
  }

  @Override
  public boolean rerun(TaskRecord task, String executor, Context context) {
    JsonObject metadata = task.metadata();
    ProtocolVersion version = switch (String.valueOf(metadata.getValue("wire"))) {
      case LEGACY_WIRE -> ProtocolVersion.V2025_11_25;
      case EXTENSION_WIRE -> ProtocolVersion.V2026_07_28;
      default -> null;
    };
    if (version == null || !"tools/call".equals(metadata.getValue("method"))
        || !(metadata.getValue("tool") instanceof String name)
        || !(metadata.getValue("arguments") instanceof JsonObject arguments)) {
      return false;
    }
    RegisteredTool tool = registry.snapshot().tools().get(name);
    if (tool == null || !tool.tool().execution().rerunOnFailover()) {
      LOG.atDebug().log(() -> "Task " + task.taskId() + ": tool " + name + " is not registered here as one to "
          + "run again; the task is failed");
      return false;
    }
    Principal principal;
    try {
      principal = metadata.getValue("principal") instanceof JsonObject p ? Principal.fromJson(p) : null;
    } catch (RuntimeException e) {
      LOG.atWarn().log(() -> "Task " + task.taskId() + ": its recorded principal is unreadable; the task is "
          + "failed rather than run for someone else: " + e.getMessage());
      return false;
    }
    DetachedRequestContext ctx = new DetachedRequestContext(engine.vertx(), context, blocking, version, principal,
        task.taskId());
    Run run = new Run(task, ctx, version);
    if (!engine.adopt(run, executor)) {
      return false;
    }
    if (run.disowned()) {
      // This instance lost its lease meanwhile: the task is an orphan again, for another instance.
      return true;
    }
    if (task.status() == TaskStatus.INPUT_REQUIRED) {
      // The questions it was waiting on belong to the run that died; this one starts over.
      engine.store().transition(task.taskId(), EnumSet.of(TaskStatus.INPUT_REQUIRED), TaskStatus.WORKING, null);
    }
    JsonObject params = new JsonObject().put("name", name).put("arguments", arguments.copy());
    context.runOnContext(v -> {
      McpSpan execution = TaskSpans.execution(tracing.get(), task, name, null, version.id());
      try (McpSpan.Scope scope = execution.makeCurrent()) {
        FeatureDispatcher.invoke(() -> features.callTool(params, ctx)).onComplete(ar -> {
          TaskSpans.end(execution, ar);
          run.finished(ar);
        });
      }
    });
    return true;
  }

  /** A re-run task's handler on this instance. */
  private final class Run extends TaskRun {

    private final DetachedRequestContext ctx;
    private final ProtocolVersion version;

    Run(TaskRecord task, DetachedRequestContext ctx, ProtocolVersion version) {
      super(task, ctx.context());
      this.ctx = ctx;
      this.version = version;
    }

    @Override
    protected void cancel(String reason) {
      ctx.cancel(reason);
    }

    void finished(AsyncResult<JsonObject> ar) {
      ctx.finish();
      if (ar.failed()) {
        JsonObject error = TaskErrors.errorJson(ar.cause(), "tools/call");
        engine.settle(this, TaskStatus.FAILED, null, error, "Tool execution failed: " + error.getString("message"));
      } else if (version == ProtocolVersion.V2026_07_28) {
        engine.settle(this, TaskStatus.COMPLETED, ar.result().copy().put("resultType", "complete"), null, null);
      } else {
        boolean isError = Boolean.TRUE.equals(ar.result().getValue("isError"));
        engine.settle(this, isError ? TaskStatus.FAILED : TaskStatus.COMPLETED, ar.result(), null,
            isError ? "The tool reported an error" : null);
      }
    }
  }
}
