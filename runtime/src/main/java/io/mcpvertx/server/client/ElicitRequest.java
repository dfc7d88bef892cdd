package io.mcpvertx.server.client;

import io.vertx.core.json.JsonObject;
import java.util.Objects;

/**
 * An {@code elicitation/create} the server sends to ask the user for input: a form with a flat JSON Schema, or
 * (2025-11-25) a URL the user opens out of band.
 */
public record ElicitRequest(String mode, String message, JsonObject requestedSchema, String url,
    String elicitationId) {

  public ElicitRequest {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(message, "message");
  }

  public static ElicitRequest form(String message, JsonObject requestedSchema) {
    return new ElicitRequest("form", message, Objects.requireNonNull(requestedSchema, "requestedSchema"), null, null);
  }

  public static ElicitRequest url(String message, String url, String elicitationId) {
    return new ElicitRequest("url", message, null, Objects.requireNonNull(url, "url"),
        Objects.requireNonNull(elicitationId, "elicitationId"));
  }

  public boolean isUrlMode() {
    return "url".equals(mode);
  }

  /**
   * The request params. Form mode leaves {@code mode} out, as the form variant allows, so 2025-06-18 clients
   * (which predate the member) read it too.
   */
  public JsonObject toParams() {
    JsonObject params = new JsonObject();
    if (isUrlMode()) {
      params.put("mode", "url").put("message", message).put("url", url).put("elicitationId", elicitationId);
    } else {
      params.put("message", message).put("requestedSchema", requestedSchema);
    }
    return params;
  }
}
