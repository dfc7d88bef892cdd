package io.mcpvertx.server.tools;

import io.vertx.core.json.JsonObject;
import java.util.Objects;

/**
 * How a tool's calls are executed: directly, or as durable tasks.
 *
 * @param taskSupport whether calls may, must or must not run as tasks
 * @param promoteAfterMs over the tasks extension, where the server decides: 0 makes every eligible call a task at
 *     once; a positive value runs the call directly and turns it into a task only if it has not finished within
 *     that many milliseconds (so quick calls, and the input rounds a handler asks before its slow part, are
 *     answered directly). Over 2025-11-25 the client decides and this is not used.
 * @param immediateResponse for 2025-11-25 clients, the text a host may hand to the model at once while the task
 *     runs ({@code io.modelcontextprotocol/model-immediate-response}); null for none
 * @param rerunOnFailover whether a task of this tool whose server instance died before it finished is run again,
 *     from the start, by another instance of the deployment (which then completes it), instead of failed. Only for
 *     handlers that may safely run twice with the same arguments: the first run may have done part (or all) of its
 *     work. The call's arguments (and the caller's principal) are then kept with the task until it ends. A
 *     server-side declaration on purpose: the {@code idempotentHint} annotation is what the tool tells clients,
 *     who cannot verify it, and an author may set it loosely; re-running work is decided here, explicitly
 */
public record ToolExecution(TaskSupport taskSupport, long promoteAfterMs, String immediateResponse,
    boolean rerunOnFailover) {

  /** Calls are answered directly. */
  public static final ToolExecution DIRECT = new ToolExecution(TaskSupport.FORBIDDEN, 0, null);

  public ToolExecution {
    Objects.requireNonNull(taskSupport, "taskSupport");
    if (promoteAfterMs < 0) {
      throw new IllegalArgumentException("promoteAfterMs must not be negative");
    }
  }

  /** Not run again on failover. */
  public ToolExecution(TaskSupport taskSupport, long promoteAfterMs, String immediateResponse) {
    this(taskSupport, promoteAfterMs, immediateResponse, false);
  }

  /** A task whenever the client can take one. */
  public static ToolExecution task(TaskSupport support) {
    return new ToolExecution(support, 0, null);
  }

  /** Direct, becoming a task when still running after {@code promoteAfterMs} (tasks extension only). */
  public static ToolExecution taskAfter(TaskSupport support, long promoteAfterMs) {
    return new ToolExecution(support, promoteAfterMs, null);
  }

  public ToolExecution withImmediateResponse(String text) {
    return new ToolExecution(taskSupport, promoteAfterMs, text, rerunOnFailover);
  }

  /**
   * Whether the tool's tasks are run again elsewhere when their instance dies (see the {@code rerunOnFailover}
   * component): true only for handlers that may run twice with the same arguments.
   */
  public ToolExecution withRerunOnFailover(boolean rerun) {
    return new ToolExecution(taskSupport, promoteAfterMs, immediateResponse, rerun);
  }

  public boolean allowsTasks() {
    return taskSupport != TaskSupport.FORBIDDEN;
  }

  /** The 2025-11-25 wire form ({@code {taskSupport}}). */
  public JsonObject toJson() {
    return new JsonObject().put("taskSupport", taskSupport.wireName());
  }
}
