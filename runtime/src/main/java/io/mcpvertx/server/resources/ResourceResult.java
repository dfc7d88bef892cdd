package io.mcpvertx.server.resources;

import io.mcpvertx.server.content.ResourceContents;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** What a {@code resources/read} returns: one or more contents. */
public record ResourceResult(List<ResourceContents> contents) {

  public ResourceResult {
    contents = List.copyOf(contents);
  }

  public static ResourceResult of(ResourceContents... contents) {
    return new ResourceResult(List.of(contents));
  }

  public static ResourceResult text(String uri, String mimeType, String text) {
    return of(ResourceContents.text(uri, mimeType, text));
  }

  public static ResourceResult blob(String uri, String mimeType, String base64) {
    return of(ResourceContents.blob(uri, mimeType, base64));
  }

  public JsonObject toJson() {
    JsonArray array = new JsonArray();
    contents.forEach(c -> array.add(c.toJson()));
    return new JsonObject().put("contents", array);
  }

  /** Reads a result written by {@link #toJson}. */
  public static ResourceResult fromJson(JsonObject json) {
    List<ResourceContents> contents = new ArrayList<>();
    for (Object c : json.getJsonArray("contents", new JsonArray())) {
      contents.add(ResourceContents.fromJson((JsonObject) c));
    }
    return new ResourceResult(contents);
  }
}
