package io.mcpvertx.server.content;

import io.mcpvertx.protocol.ProtocolVersion;
import io.vertx.core.json.JsonObject;
import java.util.Objects;

/** A resource's contents embedded in a result or prompt message. */
public record EmbeddedResource(ResourceContents resource, Annotations annotations) implements Content {

  public EmbeddedResource {
    Objects.requireNonNull(resource, "resource");
  }

  @Override
  public JsonObject toJson(ProtocolVersion version) {
    JsonObject json = new JsonObject().put("type", "resource").put("resource", resource.toJson());
    if (annotations != null) {
      json.put("annotations", annotations.toJson());
    }
    return json;
  }
}
