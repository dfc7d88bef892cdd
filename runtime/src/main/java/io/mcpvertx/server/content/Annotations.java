package io.mcpvertx.server.content;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Hints for the client about who a piece of content is for and how much it matters.
 *
 * @param audience {@code user} and/or {@code assistant}; may be null
 * @param priority 0 (least) to 1 (most important); may be null
 * @param lastModified an ISO 8601 timestamp; may be null
 */
public record Annotations(List<String> audience, Double priority, String lastModified) {

  public Annotations {
    if (priority != null && (priority < 0 || priority > 1)) {
      throw new IllegalArgumentException("priority must be between 0 and 1");
    }
    audience = audience == null ? null : List.copyOf(audience);
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject();
    if (audience != null) {
      json.put("audience", new JsonArray(List.copyOf(audience)));
    }
    if (priority != null) {
      json.put("priority", priority);
    }
    if (lastModified != null) {
      json.put("lastModified", lastModified);
    }
    return json;
  }

  /** Reads annotations; null in, null out. */
  public static Annotations fromJson(JsonObject json) {
    if (json == null) {
      return null;
    }
    List<String> audience = null;
    if (json.getValue("audience") instanceof JsonArray array) {
      audience = array.stream().map(String::valueOf).toList();
    }
    Number priority = json.getNumber("priority");
    return new Annotations(audience, priority == null ? null : priority.doubleValue(), json.getString("lastModified"));
  }
}
