package io.mcpvertx.server.tools;

import io.vertx.core.json.JsonObject;

/**
 * Hints about a tool's behaviour. Clients must treat them as untrusted unless they trust the server.
 * Any member may be null (not stated).
 */
public record ToolAnnotations(String title, Boolean readOnlyHint, Boolean destructiveHint, Boolean idempotentHint,
    Boolean openWorldHint) {

  public static ToolAnnotations readOnly() {
    return new ToolAnnotations(null, true, false, true, false);
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject();
    if (title != null) {
      json.put("title", title);
    }
    if (readOnlyHint != null) {
      json.put("readOnlyHint", readOnlyHint);
    }
    if (destructiveHint != null) {
      json.put("destructiveHint", destructiveHint);
    }
    if (idempotentHint != null) {
      json.put("idempotentHint", idempotentHint);
    }
    if (openWorldHint != null) {
      json.put("openWorldHint", openWorldHint);
    }
    return json;
  }
}
