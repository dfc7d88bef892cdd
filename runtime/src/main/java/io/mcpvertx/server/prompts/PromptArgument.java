package io.mcpvertx.server.prompts;

import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.vertx.core.json.JsonObject;
import java.util.Objects;

/** One argument a prompt takes. Required arguments are checked before the handler runs. */
public record PromptArgument(String name, String title, String description, boolean required) {

  public PromptArgument {
    Objects.requireNonNull(name, "name");
  }

  public static PromptArgument required(String name, String description) {
    return new PromptArgument(name, null, description, true);
  }

  public static PromptArgument optional(String name, String description) {
    return new PromptArgument(name, null, description, false);
  }

  public JsonObject toJson(ProtocolVersion version) {
    JsonObject json = new JsonObject().put("name", name);
    if (title != null && version.supports(ProtocolFeature.TITLES)) {
      json.put("title", title);
    }
    if (description != null) {
      json.put("description", description);
    }
    if (required) {
      json.put("required", true);
    }
    return json;
  }
}
