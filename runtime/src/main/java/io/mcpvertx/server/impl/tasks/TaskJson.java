package io.mcpvertx.server.impl.tasks;

import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.vertx.core.json.JsonObject;
import java.time.Instant;

/**
 * A task in the shape each wire expects. 2025-11-25 names the lifetime {@code ttl} and wraps the created task in
 * {@code {task: …}}; the extension names it {@code ttlMs}, flattens the created task, and inlines the outcome or
 * the open input requests into {@code tasks/get}.
 */
public final class TaskJson {

  private TaskJson() {
  }

  /** 2025-11-25 {@code Task}: tasks/get, tasks/list, tasks/cancel, notifications/tasks/status. */
  public static JsonObject legacy(TaskRecord task) {
    JsonObject json = common(task);
    json.put("ttl", task.ttlMs());
    if (task.pollIntervalMs() != null) {
      json.put("pollInterval", task.pollIntervalMs());
    }
    return json;
  }

  /** 2025-11-25 {@code CreateTaskResult}. */
  public static JsonObject legacyCreated(TaskRecord task, String immediateResponse) {
    JsonObject result = new JsonObject().put("task", legacy(task));
    if (immediateResponse != null) {
      result.put("_meta", new JsonObject().put("io.modelcontextprotocol/model-immediate-response",
          immediateResponse));
    }
    return result;
  }

  /** The extension's {@code Task} fields. */
  static JsonObject extension(TaskRecord task) {
    JsonObject json = common(task);
    json.put("ttlMs", task.ttlMs());
    if (task.pollIntervalMs() != null) {
      json.put("pollIntervalMs", task.pollIntervalMs());
    }
    return json;
  }

  /** The extension's {@code CreateTaskResult}: the task, flat, with {@code resultType: "task"}. */
  public static JsonObject extensionCreated(TaskRecord task) {
    return extension(task).put("resultType", "task");
  }

  /**
   * The extension's {@code DetailedTask} (tasks/get, notifications/tasks): the task plus its result, its error,
   * or its outstanding input requests, by status. A 2025-11-25 task failed by a tool error reads as completed.
   */
  public static JsonObject detailed(TaskRecord task) {
    JsonObject json = extension(task);
    switch (task.status()) {
      case COMPLETED -> json.put("result", task.result() == null ? new JsonObject() : task.result().copy());
      case FAILED -> {
        if (task.error() != null) {
          json.put("error", task.error().copy());
        } else if (task.result() != null) {
          // Failed by a tool result with isError under the 2025-11-25 rules. The extension's failed status is for
          // JSON-RPC errors only and must carry one; a tool error is completed work there, so it reads as such.
          json.put("status", TaskStatus.COMPLETED.wireName()).put("result", task.result().copy());
        }
      }
      case INPUT_REQUIRED -> {
        JsonObject requests = new JsonObject();
        task.inputRequests().forEach((key, request) -> requests.put(key, request.copy()));
        json.put("inputRequests", requests);
      }
      default -> {
      }
    }
    return json;
  }

  private static JsonObject common(TaskRecord task) {
    JsonObject json = new JsonObject().put("taskId", task.taskId()).put("status", task.status().wireName());
    if (task.statusMessage() != null) {
      json.put("statusMessage", task.statusMessage());
    }
    return json.put("createdAt", iso(task.createdAt())).put("lastUpdatedAt", iso(task.lastUpdatedAt()));
  }

  static String iso(long epochMillis) {
    return Instant.ofEpochMilli(epochMillis).toString();
  }
}
