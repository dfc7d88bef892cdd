package io.mcpvertx.server.prompts;

import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.content.Content;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** What {@code prompts/get} returns. */
public record PromptResult(String description, List<PromptMessage> messages) {

  public PromptResult {
    messages = List.copyOf(messages);
  }

  public static PromptResult of(PromptMessage... messages) {
    return new PromptResult(null, List.of(messages));
  }

  public JsonObject toJson(ProtocolVersion version) {
    JsonArray array = new JsonArray();
    messages.forEach(m -> array.add(m.toJson(version)));
    JsonObject json = new JsonObject();
    if (description != null) {
      json.put("description", description);
    }
    return json.put("messages", array);
  }

  /** Reads a result written by {@link #toJson} for the newest revision. */
  public static PromptResult fromJson(JsonObject json) {
    List<PromptMessage> messages = new ArrayList<>();
    for (Object m : json.getJsonArray("messages", new JsonArray())) {
      JsonObject message = (JsonObject) m;
      messages.add(new PromptMessage(message.getString("role"),
          Content.fromJson(message.getJsonObject("content"))));
    }
    return new PromptResult(json.getString("description"), messages);
  }
}
