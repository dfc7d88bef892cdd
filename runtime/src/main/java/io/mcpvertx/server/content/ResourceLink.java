package io.mcpvertx.server.content;

import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.vertx.core.json.JsonObject;
import java.util.Objects;

/**
 * A link to a resource the client may read (2025-06-18 and later; older clients get the URI as text).
 */
public record ResourceLink(String uri, String name, String title, String description, String mimeType, Long size,
    Annotations annotations) implements Content {

  public ResourceLink {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(name, "name");
  }

  public static ResourceLink of(String uri, String name) {
    return new ResourceLink(uri, name, null, null, null, null, null);
  }

  @Override
  public JsonObject toJson(ProtocolVersion version) {
    if (!version.supports(ProtocolFeature.RESOURCE_LINKS)) {
      return new TextContent("Resource: " + uri, annotations).toJson(version);
    }
    JsonObject json = new JsonObject().put("type", "resource_link").put("uri", uri).put("name", name);
    if (title != null) {
      json.put("title", title);
    }
    if (description != null) {
      json.put("description", description);
    }
    if (mimeType != null) {
      json.put("mimeType", mimeType);
    }
    if (size != null) {
      json.put("size", size);
    }
    if (annotations != null) {
      json.put("annotations", annotations.toJson());
    }
    return json;
  }
}
