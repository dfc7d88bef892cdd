package io.mcpvertx.testing;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checks what a server emits against the official schema of the negotiated revision: the envelope, and for
 * responses the result type of the method answered, for notifications and server requests their own type.
 */
public final class MessageChecker {

  private static final Map<String, String> RESULT_TYPES = Map.ofEntries(
      Map.entry("initialize", "InitializeResult"),
      Map.entry("ping", "EmptyResult"),
      Map.entry("logging/setLevel", "EmptyResult"),
      Map.entry("resources/subscribe", "EmptyResult"),
      Map.entry("resources/unsubscribe", "EmptyResult"),
      Map.entry("tools/list", "ListToolsResult"),
      Map.entry("tools/call", "CallToolResult"),
      Map.entry("resources/list", "ListResourcesResult"),
      Map.entry("resources/templates/list", "ListResourceTemplatesResult"),
      Map.entry("resources/read", "ReadResourceResult"),
      Map.entry("prompts/list", "ListPromptsResult"),
      Map.entry("prompts/get", "GetPromptResult"),
      Map.entry("completion/complete", "CompleteResult"),
      Map.entry("tasks/get", "GetTaskResult"),
      Map.entry("tasks/result", "GetTaskPayloadResult"),
      Map.entry("tasks/list", "ListTasksResult"),
      Map.entry("tasks/cancel", "CancelTaskResult"));

  private static final Map<String, String> NOTIFICATION_TYPES = Map.ofEntries(
      Map.entry("notifications/progress", "ProgressNotification"),
      Map.entry("notifications/message", "LoggingMessageNotification"),
      Map.entry("notifications/cancelled", "CancelledNotification"),
      Map.entry("notifications/tools/list_changed", "ToolListChangedNotification"),
      Map.entry("notifications/resources/list_changed", "ResourceListChangedNotification"),
      Map.entry("notifications/prompts/list_changed", "PromptListChangedNotification"),
      Map.entry("notifications/resources/updated", "ResourceUpdatedNotification"),
      Map.entry("notifications/elicitation/complete", "ElicitationCompleteNotification"),
      Map.entry("notifications/tasks/status", "TaskStatusNotification"));

  private static final Map<String, String> REQUEST_TYPES = Map.ofEntries(
      Map.entry("ping", "PingRequest"),
      Map.entry("sampling/createMessage", "CreateMessageRequest"),
      Map.entry("elicitation/create", "ElicitRequest"),
      Map.entry("roots/list", "ListRootsRequest"));

  private MessageChecker() {
  }

  /**
   * The schema violations of one emitted message (or batch array element).
   *
   * @param answeredMethod for a response, the method of the request it answers; otherwise ignored
   */
  public static List<String> check(String version, JsonObject message, String answeredMethod) {
    List<String> problems = new ArrayList<>();
    if (!SpecSchemas.available()) {
      // Nothing to check against; under CI=true, the one problem saying the schemas are missing.
      problems.addAll(SpecSchemas.violations(version, "JSONRPCMessage", message));
      return problems;
    }
    if (!SpecSchemas.hasSchema(version)) {
      return problems;
    }
    if (message.containsKey("method")) {
      String method = message.getString("method");
      boolean request = message.containsKey("id");
      problems.addAll(prefix("envelope", SpecSchemas.violations(version,
          request ? "JSONRPCRequest" : "JSONRPCNotification", message)));
      String type = request ? REQUEST_TYPES.get(method) : NOTIFICATION_TYPES.get(method);
      if (type == null || !SpecSchemas.defines(version, type)) {
        problems.add("the server sent " + (request ? "request " : "notification ") + method
            + ", which revision " + version + " does not define");
      } else {
        problems.addAll(prefix(type, SpecSchemas.violations(version, type, message)));
      }
    } else if (message.containsKey("error")) {
      String envelope = SpecSchemas.defines(version, "JSONRPCErrorResponse") ? "JSONRPCErrorResponse" : "JSONRPCError";
      if (message.containsKey("id") && message.getValue("id") == null) {
        // JSON-RPC 2.0 requires "id": null when the request's id could not be read, and MCP says every message
        // follows JSON-RPC 2.0. No MCP schema can express it: the older ones require a string or integer id, the
        // newer ones (2025-11-25 on) make the id optional but still not nullable. Check the rest of the message.
        JsonObject copy = message.copy();
        if (envelope.equals("JSONRPCError")) {
          copy.put("id", 0);
        } else {
          copy.remove("id");
        }
        problems.addAll(prefix(envelope, SpecSchemas.violations(version, envelope, copy)));
      } else {
        problems.addAll(prefix(envelope, SpecSchemas.violations(version, envelope, message)));
      }
    } else {
      String envelope = SpecSchemas.defines(version, "JSONRPCResultResponse") ? "JSONRPCResultResponse" : "JSONRPCResponse";
      problems.addAll(prefix(envelope, SpecSchemas.violations(version, envelope, message)));
      String type = answeredMethod == null ? null : RESULT_TYPES.get(answeredMethod);
      if (message.getValue("result") instanceof JsonObject result && result.containsKey("task")
          && !result.containsKey("content") && SpecSchemas.defines(version, "CreateTaskResult")) {
        // A task-augmented request (2025-11-25 on) is answered with the task, not with the request's own result.
        type = "CreateTaskResult";
      }
      if (type != null && SpecSchemas.defines(version, type)
          && message.getValue("result") instanceof JsonObject result) {
        problems.addAll(prefix(type, SpecSchemas.violations(version, type, result)));
      }
    }
    return problems;
  }

  /** Checks every element of a batch response. */
  public static List<String> checkBatch(String version, JsonArray batch, Map<Object, String> methodsById) {
    List<String> problems = new ArrayList<>();
    for (Object element : batch) {
      JsonObject message = (JsonObject) element;
      Object id = message.getValue("id");
      problems.addAll(check(version, message, methodsById.get(id instanceof Number n ? (Object) n.longValue() : id)));
    }
    return problems;
  }

  private static List<String> prefix(String what, List<String> violations) {
    return violations.stream().map(v -> what + ": " + v).toList();
  }
}
