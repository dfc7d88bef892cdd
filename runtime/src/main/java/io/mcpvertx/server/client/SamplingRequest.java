package io.mcpvertx.server.client;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Objects;

/**
 * A {@code sampling/createMessage} request: the params as the spec defines them. {@link #prompt} covers the
 * common case of one user message.
 */
public record SamplingRequest(JsonObject params) {

  public SamplingRequest {
    Objects.requireNonNull(params, "params");
    if (!(params.getValue("messages") instanceof JsonArray)) {
      throw new IllegalArgumentException("sampling params need a messages array");
    }
    if (!(params.getValue("maxTokens") instanceof Number)) {
      throw new IllegalArgumentException("sampling params need maxTokens");
    }
  }

  public static SamplingRequest prompt(String text, int maxTokens) {
    JsonObject message = new JsonObject().put("role", "user")
        .put("content", new JsonObject().put("type", "text").put("text", text));
    return new SamplingRequest(new JsonObject().put("messages", new JsonArray().add(message)).put("maxTokens", maxTokens));
  }

  /** Whether the request offers the model tools, which only 2025-11-25 clients with sampling.tools accept. */
  public boolean usesTools() {
    return params.containsKey("tools") || params.containsKey("toolChoice");
  }
}
