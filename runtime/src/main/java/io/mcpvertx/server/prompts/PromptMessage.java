package io.mcpvertx.server.prompts;

import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.content.Content;
import io.vertx.core.json.JsonObject;
import java.util.Objects;

/** One message of a prompt: a role ({@code user} or {@code assistant}) and one content block. */
public record PromptMessage(String role, Content content) {

  public PromptMessage {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(content, "content");
    if (!role.equals("user") && !role.equals("assistant")) {
      throw new IllegalArgumentException("role must be user or assistant: " + role);
    }
  }

  public static PromptMessage user(Content content) {
    return new PromptMessage("user", content);
  }

  public static PromptMessage user(String text) {
    return new PromptMessage("user", Content.text(text));
  }

  public static PromptMessage assistant(String text) {
    return new PromptMessage("assistant", Content.text(text));
  }

  public JsonObject toJson(ProtocolVersion version) {
    return new JsonObject().put("role", role).put("content", content.toJson(version));
  }
}
