package io.mcpvertx.server.content;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Objects;

/**
 * An icon a client may show for a tool, resource, prompt or the server (2025-11-25 and later).
 *
 * @param src an https or data URI
 * @param mimeType optional
 * @param sizes optional, such as {@code 48x48} or {@code any}
 * @param theme optional, {@code light} or {@code dark}
 */
public record Icon(String src, String mimeType, List<String> sizes, String theme) {

  public Icon {
    Objects.requireNonNull(src, "src");
    sizes = sizes == null ? null : List.copyOf(sizes);
  }

  public static Icon of(String src) {
    return new Icon(src, null, null, null);
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("src", src);
    if (mimeType != null) {
      json.put("mimeType", mimeType);
    }
    if (sizes != null) {
      json.put("sizes", new JsonArray(List.copyOf(sizes)));
    }
    if (theme != null) {
      json.put("theme", theme);
    }
    return json;
  }

  /** Reads icons written by {@link #toJson(List)}; null or absent yields an empty list. */
  public static List<Icon> fromJson(JsonArray array) {
    if (array == null) {
      return List.of();
    }
    return array.stream().map(JsonObject.class::cast).map(icon -> new Icon(icon.getString("src"),
        icon.getString("mimeType"), icon.getJsonArray("sizes") == null ? null
            : icon.getJsonArray("sizes").stream().map(String::valueOf).toList(), icon.getString("theme"))).toList();
  }

  /** Icons as a JSON array, or null when there are none, so callers can skip the member. */
  public static JsonArray toJson(List<Icon> icons) {
    if (icons == null || icons.isEmpty()) {
      return null;
    }
    JsonArray array = new JsonArray();
    icons.forEach(icon -> array.add(icon.toJson()));
    return array;
  }
}
