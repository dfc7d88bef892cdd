package io.mcpvertx.server.resources;

import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.content.Annotations;
import io.mcpvertx.server.content.Icon;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Objects;

/**
 * A family of resources named by an RFC 6570 URI template, such as {@code file:///logs/{date}}. Reads of any URI
 * that matches it go to the template's handler with the variables extracted.
 */
public record ResourceTemplate(String uriTemplate, String name, String title, String description, String mimeType,
    Annotations annotations, List<Icon> icons) {

  public ResourceTemplate {
    Objects.requireNonNull(uriTemplate, "uriTemplate");
    Objects.requireNonNull(name, "name");
    icons = icons == null ? List.of() : List.copyOf(icons);
  }

  public static ResourceTemplate of(String uriTemplate, String name, String mimeType) {
    return new ResourceTemplate(uriTemplate, name, null, null, mimeType, null, null);
  }

  public ResourceTemplate withDescription(String description) {
    return new ResourceTemplate(uriTemplate, name, title, description, mimeType, annotations, icons);
  }

  public ResourceTemplate withTitle(String title) {
    return new ResourceTemplate(uriTemplate, name, title, description, mimeType, annotations, icons);
  }

  public JsonObject toJson(ProtocolVersion version) {
    JsonObject json = new JsonObject().put("uriTemplate", uriTemplate).put("name", name);
    if (title != null && version.supports(ProtocolFeature.TITLES)) {
      json.put("title", title);
    }
    if (description != null) {
      json.put("description", description);
    }
    if (mimeType != null) {
      json.put("mimeType", mimeType);
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
  public static ResourceTemplate fromJson(JsonObject json) {
    return new ResourceTemplate(json.getString("uriTemplate"), json.getString("name"), json.getString("title"),
        json.getString("description"), json.getString("mimeType"), null, null);
  }
}
