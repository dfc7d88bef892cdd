package io.mcpvertx.server.content;

import io.mcpvertx.protocol.ProtocolVersion;
import io.vertx.core.json.JsonObject;
import java.util.Objects;

/** Plain text. */
public record TextContent(String text, Annotations annotations) implements Content {

  public TextContent {
    Objects.requireNonNull(text, "text");
  }

  @Override
  public JsonObject toJson(ProtocolVersion version) {
    JsonObject json = new JsonObject().put("type", "text").put("text", text);
    if (annotations != null) {
      json.put("annotations", annotations.toJson());
    }
    return json;
  }
}
