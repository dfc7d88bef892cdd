package io.mcpvertx.server.content;

import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.vertx.core.json.JsonObject;
import java.util.Objects;

/** Audio, base64-encoded (2025-03-26 and later; older clients get a text block saying it was left out). */
public record AudioContent(String data, String mimeType, Annotations annotations) implements Content {

  public AudioContent {
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(mimeType, "mimeType");
  }

  @Override
  public JsonObject toJson(ProtocolVersion version) {
    if (!version.supports(ProtocolFeature.AUDIO_CONTENT)) {
      return new TextContent("[" + mimeType + " audio omitted: protocol " + version.id() + " cannot carry audio]",
          annotations).toJson(version);
    }
    JsonObject json = new JsonObject().put("type", "audio").put("data", data).put("mimeType", mimeType);
    if (annotations != null) {
      json.put("annotations", annotations.toJson());
    }
    return json;
  }
}
