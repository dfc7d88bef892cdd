package io.mcpvertx.server;

import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.content.Icon;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Objects;

/** The server's {@code Implementation} block: name, version and, where the revision has them, title and icons. */
public record ServerInfo(String name, String version, String title, String description, String websiteUrl,
    List<Icon> icons) {

  public ServerInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(version, "version");
    icons = icons == null ? List.of() : List.copyOf(icons);
  }

  public static ServerInfo of(String name, String version) {
    return new ServerInfo(name, version, null, null, null, null);
  }

  public JsonObject toJson(ProtocolVersion v) {
    JsonObject json = new JsonObject().put("name", name).put("version", version);
    if (title != null && v.supports(ProtocolFeature.TITLES)) {
      json.put("title", title);
    }
    if (v.supports(ProtocolFeature.IMPLEMENTATION_DESCRIPTION)) {
      if (description != null) {
        json.put("description", description);
      }
      if (websiteUrl != null) {
        json.put("websiteUrl", websiteUrl);
      }
    }
    if (v.supports(ProtocolFeature.ICONS) && !icons.isEmpty()) {
      json.put("icons", Icon.toJson(icons));
    }
    return json;
  }

  public JsonObject toJson() {
    return toJson(ProtocolVersion.LATEST);
  }

  public static ServerInfo fromJson(JsonObject json) {
    return new ServerInfo(json.getString("name", "mcp-vertx"), json.getString("version", "0.0.0"),
        json.getString("title"), json.getString("description"), json.getString("websiteUrl"),
        Icon.fromJson(json.getJsonArray("icons")));
  }
}
