package io.mcpvertx.server.impl.tracing;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.tracing.McpSpan;
import io.mcpvertx.server.tracing.McpTracer;
import io.mcpvertx.server.tracing.SpanStart;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.vertx.core.AsyncResult;
import io.vertx.core.json.JsonObject;

/**
 * The spans of a task's life after the request that created it: the creating span's {@code traceparent} is kept
 * in the task's stored metadata, so its execution (on whichever instance runs it, a re-run after a failover too)
 * and the {@code tasks/get} and {@code tasks/result} that follow it are linked to that span.
 */
public final class TaskSpans {

  /** The metadata member that keeps the creating span's W3C {@code traceparent}. */
  public static final String TRACEPARENT = "traceparent";

  private TaskSpans() {
  }

  /** Keeps {@code creating}'s traceparent in a new task's {@code metadata} (nothing without tracing). */
  public static JsonObject remember(JsonObject metadata, McpSpan creating) {
    String traceparent = creating.traceparent();
    if (traceparent != null) {
      metadata.put(TRACEPARENT, traceparent);
    }
    return metadata;
  }

  /** Starts the span of one execution of {@code task}'s tool, linked to the span that created the task. */
  public static McpSpan execution(McpTracer tracer, TaskRecord task, String tool, String sessionId,
      String protocolVersion) {
    if (tracer == McpTracer.NONE) {
      return McpSpan.NONE;
    }
    return tracer.start(new SpanStart("tools/call", tool, null, null, sessionId, protocolVersion, null,
        task.taskId(), creator(task)));
  }

  /** Links {@code span} (a {@code tasks/get} or {@code tasks/result}) to the span that created {@code task}. */
  public static TaskRecord link(McpSpan span, TaskRecord task) {
    if (span != McpSpan.NONE) {
      span.link(creator(task));
    }
    return task;
  }

  /** Ends an execution span with its handler's outcome (without logging the failure again). */
  public static void end(McpSpan span, AsyncResult<JsonObject> outcome) {
    if (span == McpSpan.NONE) {
      return;
    }
    if (outcome.succeeded()) {
      span.end(null, TracedSink.isToolError(outcome.result()));
    } else {
      span.end(outcome.cause() instanceof McpException e ? e.error()
          : new JsonRpcError(JsonRpcErrorCodes.INTERNAL_ERROR, "Internal error"), false);
    }
  }

  private static String creator(TaskRecord task) {
    return task.metadata() != null && task.metadata().getValue(TRACEPARENT) instanceof String s ? s : null;
  }
}
