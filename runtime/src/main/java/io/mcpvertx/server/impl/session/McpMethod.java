package io.mcpvertx.server.impl.session;

import java.util.HashMap;
import java.util.Map;

/** The methods the session engine knows, so dispatch is a {@code switch}, not string comparisons. */
enum McpMethod {
  INITIALIZE("initialize", true),
  PING("ping", true),
  LOGGING_SET_LEVEL("logging/setLevel", true),
  TOOLS_LIST("tools/list", true),
  TOOLS_CALL("tools/call", true),
  RESOURCES_LIST("resources/list", true),
  RESOURCES_TEMPLATES_LIST("resources/templates/list", true),
  RESOURCES_READ("resources/read", true),
  RESOURCES_SUBSCRIBE("resources/subscribe", true),
  RESOURCES_UNSUBSCRIBE("resources/unsubscribe", true),
  PROMPTS_LIST("prompts/list", true),
  PROMPTS_GET("prompts/get", true),
  COMPLETION_COMPLETE("completion/complete", true),
  TASKS_GET("tasks/get", true),
  TASKS_RESULT("tasks/result", true),
  TASKS_LIST("tasks/list", true),
  TASKS_CANCEL("tasks/cancel", true),
  INITIALIZED("notifications/initialized", false),
  CANCELLED("notifications/cancelled", false),
  PROGRESS("notifications/progress", false),
  ROOTS_LIST_CHANGED("notifications/roots/list_changed", false);

  private static final Map<String, McpMethod> BY_NAME = new HashMap<>();

  static {
    for (McpMethod m : values()) {
      BY_NAME.put(m.wireName, m);
    }
  }

  private final String wireName;
  private final boolean request;

  McpMethod(String wireName, boolean request) {
    this.wireName = wireName;
    this.request = request;
  }

  String wireName() {
    return wireName;
  }

  /** True for request methods, false for notifications. */
  boolean isRequest() {
    return request;
  }

  /** The method with this wire name, or null. */
  static McpMethod of(String name) {
    return BY_NAME.get(name);
  }
}
