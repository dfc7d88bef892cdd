package io.mcpvertx.server.client;

import io.vertx.core.json.JsonObject;

/** The client's answer to a sampling request: the model's message, as the spec's {@code CreateMessageResult}. */
public record SamplingResult(JsonObject json) {

  public String role() {
    return json.getString("role");
  }

  public String model() {
    return json.getString("model");
  }

  public String stopReason() {
    return json.getString("stopReason");
  }

  /** The content block (or, with tools, possibly an array of blocks). */
  public Object content() {
    return json.getValue("content");
  }

  /** The text of a single text content block, or null. */
  public String text() {
    return json.getValue("content") instanceof JsonObject c && "text".equals(c.getString("type"))
        ? c.getString("text") : null;
  }
}
