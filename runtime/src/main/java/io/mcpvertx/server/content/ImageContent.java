package io.mcpvertx.server.content;

import io.mcpvertx.protocol.ProtocolVersion;
import io.vertx.core.json.JsonObject;
import java.util.Objects;

/** An image, base64-encoded. */
public record ImageContent(String data, String mimeType, Annotations annotations) implements Content {

  public ImageContent {
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(mimeType, "mimeType");
  }

  @Override
  public JsonObject toJson(ProtocolVersion version) {
    JsonObject json = new JsonObject().put("type", "image").put("data", data).put("mimeType", mimeType);
    if (annotations != null) {
      json.put("annotations", annotations.toJson());
    }
    return json;
  }
}
