package io.mcpvertx.server.tools;

import io.mcpvertx.protocol.McpException;
import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.content.Content;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * What a tool call returns. {@code isError} results are tool-level failures the model should see; protocol-level
 * failures are a failed future instead (see {@link McpException}).
 *
 * @param structuredContent a JSON object matching the tool's {@code outputSchema}, or null
 */
public record ToolResult(List<Content> content, JsonObject structuredContent, boolean isError, JsonObject meta) {

  public ToolResult {
    content = content == null ? List.of() : List.copyOf(content);
  }

  public static ToolResult of(Content... content) {
    return new ToolResult(List.of(content), null, false, null);
  }

  public static ToolResult text(String text) {
    return of(Content.text(text));
  }

  /** A tool-level error the model can read and act on. */
  public static ToolResult error(String message) {
    return new ToolResult(List.of(Content.text(message)), null, true, null);
  }

  /**
   * A structured result. The JSON is also serialised into a text block, as the spec recommends for clients that
   * do not read {@code structuredContent}.
   */
  public static ToolResult structured(JsonObject structuredContent) {
    return new ToolResult(List.of(Content.text(structuredContent.encode())), structuredContent, false, null);
  }

  public ToolResult withMeta(JsonObject meta) {
    return new ToolResult(content, structuredContent, isError, meta);
  }

  public JsonObject toJson(ProtocolVersion version) {
    JsonArray blocks = new JsonArray();
    for (Content block : content) {
      blocks.add(block.toJson(version));
    }
    boolean structured = structuredContent != null && version.supports(ProtocolFeature.STRUCTURED_OUTPUT);
    if (structuredContent != null && !structured && content.isEmpty()) {
      // Older clients cannot read structuredContent, so they get it as text.
      blocks.add(Content.text(structuredContent.encode()).toJson(version));
    }
    JsonObject json = new JsonObject().put("content", blocks);
    if (structured) {
      json.put("structuredContent", structuredContent);
    }
    if (isError) {
      json.put("isError", true);
    }
    if (meta != null) {
      json.put("_meta", meta);
    }
    return json;
  }

  /** Reads a result written by {@link #toJson} for the newest revision. */
  public static ToolResult fromJson(JsonObject json) {
    List<Content> content = new ArrayList<>();
    for (Object block : json.getJsonArray("content", new JsonArray())) {
      content.add(Content.fromJson((JsonObject) block));
    }
    return new ToolResult(content, json.getJsonObject("structuredContent"), json.getBoolean("isError", false),
        json.getJsonObject("_meta"));
  }
}
