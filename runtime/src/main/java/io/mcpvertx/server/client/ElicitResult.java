package io.mcpvertx.server.client;

import io.vertx.core.json.JsonObject;

/**
 * The client's answer to an elicitation.
 *
 * @param action {@code accept}, {@code decline} or {@code cancel}
 * @param content the submitted form values when accepted in form mode, otherwise null
 */
public record ElicitResult(String action, JsonObject content) {

  public static ElicitResult fromJson(JsonObject json) {
    return new ElicitResult(json.getString("action", "cancel"), json.getJsonObject("content"));
  }

  public boolean accepted() {
    return "accept".equals(action);
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("action", action);
    if (content != null) {
      json.put("content", content);
    }
    return json;
  }
}
