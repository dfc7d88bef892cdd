package io.mcpvertx.server.content;

import io.mcpvertx.protocol.ProtocolVersion;
import io.vertx.core.json.JsonObject;

/**
 * A content block in a tool result or a prompt message.
 *
 * <p>Serialisation takes the negotiated version: a block that revision cannot carry (audio before 2025-03-26,
 * resource links before 2025-06-18) is written as a text block that says what it was, so every message we emit
 * stays valid for the client's schema.
 */
public sealed interface Content
    permits TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource {

  JsonObject toJson(ProtocolVersion version);

  static TextContent text(String text) {
    return new TextContent(text, null);
  }

  static ImageContent image(String base64Data, String mimeType) {
    return new ImageContent(base64Data, mimeType, null);
  }

  static AudioContent audio(String base64Data, String mimeType) {
    return new AudioContent(base64Data, mimeType, null);
  }

  static EmbeddedResource resource(ResourceContents contents) {
    return new EmbeddedResource(contents, null);
  }

  /** Reads a content block in its wire form (from a remote handler, or a client's sampling answer). */
  static Content fromJson(JsonObject json) {
    Annotations annotations = Annotations.fromJson(json.getJsonObject("annotations"));
    String type = json.getString("type", "");
    switch (type) {
      case "text":
        return new TextContent(json.getString("text", ""), annotations);
      case "image":
        return new ImageContent(json.getString("data", ""), json.getString("mimeType", ""), annotations);
      case "audio":
        return new AudioContent(json.getString("data", ""), json.getString("mimeType", ""), annotations);
      case "resource_link":
        return new ResourceLink(json.getString("uri", ""), json.getString("name", ""), json.getString("title"),
            json.getString("description"), json.getString("mimeType"), json.getLong("size"), annotations);
      case "resource":
        return new EmbeddedResource(ResourceContents.fromJson(json.getJsonObject("resource", new JsonObject())),
            annotations);
      default:
        throw new IllegalArgumentException("Unknown content type: " + type);
    }
  }
}
