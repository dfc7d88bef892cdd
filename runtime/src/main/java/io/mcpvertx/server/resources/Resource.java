package io.mcpvertx.server.resources;

import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.content.Annotations;
import io.mcpvertx.server.content.Icon;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Objects;

/** A concrete resource as listed by {@code resources/list}. */
public record Resource(String uri, String name, String title, String description, String mimeType, Long size,
    Annotations annotations, List<Icon> icons) {

  public Resource {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(name, "name");
    icons = icons == null ? List.of() : List.copyOf(icons);
  }

  public static Resource of(String uri, String name, String mimeType) {
    return new Resource(uri, name, null, null, mimeType, null, null, null);
  }

  public Resource withDescription(String description) {
    return new Resource(uri, name, title, description, mimeType, size, annotations, icons);
  }

  public Resource withTitle(String title) {
    return new Resource(uri, name, title, description, mimeType, size, annotations, icons);
  }

  public JsonObject toJson(ProtocolVersion version) {
    JsonObject json = new JsonObject().put("uri", uri).put("name", name);
    if (title != null && version.supports(ProtocolFeature.TITLES)) {
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
    if (version.supports(ProtocolFeature.ICONS) && !icons.isEmpty()) {
      json.put("icons", Icon.toJson(icons));
    }
    return json;
  }

  /** Reads a definition written by {@link #toJson} for the newest revision. */
  public static Resource fromJson(JsonObject json) {
    return new Resource(json.getString("uri"), json.getString("name"), json.getString("title"),
        json.getString("description"), json.getString("mimeType"), json.getLong("size"),
        Annotations.fromJson(json.getJsonObject("annotations")), Icon.fromJson(json.getJsonArray("icons")));
  }
}
