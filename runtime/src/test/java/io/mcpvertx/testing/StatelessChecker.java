package io.mcpvertx.testing;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checks what a 2026-07-28 server sends against the official schema, and what the tasks extension defines (task
 * results, {@code notifications/tasks}) against the extension's schema. Stateless: one instance per check.
 */
final class StatelessChecker {

  private static final String VERSION = StatelessTestClient.VERSION;

  /** Results the tasks extension defines, by the method they answer (tools/call only when it made a task). */
  private static final Map<String, String> TASK_RESULT_TYPES = Map.of(
      "tasks/get", "GetTaskResult",
      "tasks/update", "UpdateTaskResult",
      "tasks/cancel", "CancelTaskResult");

  private static final Map<String, String> RESULT_TYPES = Map.ofEntries(
      Map.entry("server/discover", "DiscoverResult"),
      Map.entry("tools/list", "ListToolsResult"),
      Map.entry("tools/call", "CallToolResult"),
      Map.entry("resources/list", "ListResourcesResult"),
      Map.entry("resources/templates/list", "ListResourceTemplatesResult"),
      Map.entry("resources/read", "ReadResourceResult"),
      Map.entry("prompts/list", "ListPromptsResult"),
      Map.entry("prompts/get", "GetPromptResult"),
      Map.entry("completion/complete", "CompleteResult"));

  private static final Map<Integer, String> ERROR_TYPES = Map.of(
      -32022, "UnsupportedProtocolVersionError",
      -32020, "HeaderMismatchError",
      -32021, "MissingRequiredClientCapabilityError");

  private static final Map<Integer, String> ERROR_OBJECT_TYPES = Map.of(
      -32601, "MethodNotFoundError",
      -32602, "InvalidParamsError");

  private static final Map<String, String> NOTIFICATION_TYPES = Map.of(
      "notifications/progress", "ProgressNotification",
      "notifications/message", "LoggingMessageNotification",
      "notifications/tools/list_changed", "ToolListChangedNotification",
      "notifications/prompts/list_changed", "PromptListChangedNotification",
      "notifications/resources/list_changed", "ResourceListChangedNotification",
      "notifications/resources/updated", "ResourceUpdatedNotification",
      "notifications/subscriptions/acknowledged", "SubscriptionsAcknowledgedNotification",
      "notifications/tasks", "TaskStatusNotification");

  private final List<String> violations = new ArrayList<>();

  private StatelessChecker() {
  }

  /** The problems of {@code message}, the answer to {@code answeredMethod} (null for a notification). */
  static List<String> check(JsonObject message, String answeredMethod) {
    StatelessChecker checker = new StatelessChecker();
    checker.run(message, answeredMethod);
    return checker.violations;
  }

  private void run(JsonObject message, String answeredMethod) {
    if (message.containsKey("method")) {
      String method = message.getString("method");
      String type = NOTIFICATION_TYPES.get(method);
      if (message.containsKey("id") || type == null) {
        violations.add("unexpected message " + message.encode());
        return;
      }
      if (method.equals("notifications/tasks")) {
        record(SpecSchemas.EXT_TASKS, type, message);
        return;
      }
      record(type, message);
      JsonObject params = message.getJsonObject("params");
      if (method.equals("notifications/subscriptions/acknowledged") && params != null
          && params.getValue("notifications") instanceof JsonObject honored && honored.containsKey("taskIds")) {
        record(SpecSchemas.EXT_TASKS, "TaskSubscriptionAcknowledgedNotifications", honored);
      }
    } else if (message.getValue("error") instanceof JsonObject error) {
      record("JSONRPCErrorResponse", message);
      String type = ERROR_TYPES.get(error.getInteger("code"));
      if (type != null) {
        record(type, message);
      }
      String objectType = ERROR_OBJECT_TYPES.get(error.getInteger("code"));
      if (objectType != null) {
        record(objectType, error);
      }
    } else {
      record("JSONRPCResultResponse", message);
      JsonObject result = message.getJsonObject("result");
      String resultType = result.getString("resultType");
      if ("task".equals(resultType)) {
        if (!"tools/call".equals(answeredMethod)) {
          violations.add("a task made for " + answeredMethod + ": " + result.encode());
        }
        record(SpecSchemas.EXT_TASKS, "CreateTaskResult", result);
        return;
      }
      String taskType = TASK_RESULT_TYPES.get(answeredMethod);
      if (taskType != null) {
        record(SpecSchemas.EXT_TASKS, taskType, result);
        return;
      }
      String type = "input_required".equals(resultType) ? "InputRequiredResult"
          : RESULT_TYPES.get(answeredMethod);
      if (type != null) {
        record(type, result);
      }
    }
  }

  private void record(String type, JsonObject instance) {
    record(VERSION, type, instance);
  }

  private void record(String schema, String type, JsonObject instance) {
    for (String problem : SpecSchemas.violations(schema, type, instance)) {
      violations.add(type + ": " + problem + " in " + instance.encode());
    }
  }
}
