package io.mcpvertx.server.content;

import io.vertx.core.json.JsonObject;
import java.util.Objects;

/** The contents of a resource: text or a base64 blob, always naming its URI. */
public sealed interface ResourceContents permits ResourceContents.Text, ResourceContents.Blob {

  String uri();

  String mimeType();

  JsonObject toJson();

  static Text text(String uri, String mimeType, String text) {
    return new Text(uri, mimeType, text);
  }

  static Blob blob(String uri, String mimeType, String base64) {
    return new Blob(uri, mimeType, base64);
  }

  static ResourceContents fromJson(JsonObject json) {
    if (json.containsKey("blob")) {
      return new Blob(json.getString("uri", ""), json.getString("mimeType"), json.getString("blob", ""));
    }
    return new Text(json.getString("uri", ""), json.getString("mimeType"), json.getString("text", ""));
  }

  /** Text contents. */
  record Text(String uri, String mimeType, String text) implements ResourceContents {
    public Text {
      Objects.requireNonNull(uri, "uri");
      Objects.requireNonNull(text, "text");
    }

    @Override
    public JsonObject toJson() {
      JsonObject json = new JsonObject().put("uri", uri);
      if (mimeType != null) {
        json.put("mimeType", mimeType);
      }
      return json.put("text", text);
    }
  }

  /** Binary contents, base64-encoded. */
  record Blob(String uri, String mimeType, String blob) implements ResourceContents {
    public Blob {
      Objects.requireNonNull(uri, "uri");
      Objects.requireNonNull(blob, "blob");
    }

    @Override
    public JsonObject toJson() {
      JsonObject json = new JsonObject().put("uri", uri);
      if (mimeType != null) {
        json.put("mimeType", mimeType);
      }
      return json.put("blob", blob);
    }
  }
}
