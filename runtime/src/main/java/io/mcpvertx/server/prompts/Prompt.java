package io.mcpvertx.server.prompts;

import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.content.Icon;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** A prompt template as listed by {@code prompts/list}. */
public record Prompt(String name, String title, String description, List<PromptArgument> arguments,
    List<Icon> icons) {

  public Prompt {
    Objects.requireNonNull(name, "name");
    arguments = arguments == null ? List.of() : List.copyOf(arguments);
    icons = icons == null ? List.of() : List.copyOf(icons);
  }

  public static Prompt of(String name, String description, PromptArgument... arguments) {
    return new Prompt(name, null, description, List.of(arguments), null);
  }

  public Prompt withTitle(String title) {
    return new Prompt(name, title, description, arguments, icons);
  }

  public JsonObject toJson(ProtocolVersion version) {
    JsonObject json = new JsonObject().put("name", name);
    if (title != null && version.supports(ProtocolFeature.TITLES)) {
      json.put("title", title);
    }
    if (description != null) {
      json.put("description", description);
    }
    if (!arguments.isEmpty()) {
      JsonArray args = new JsonArray();
      arguments.forEach(a -> args.add(a.toJson(version)));
      json.put("arguments", args);
    }
    if (version.supports(ProtocolFeature.ICONS) && !icons.isEmpty()) {
      json.put("icons", Icon.toJson(icons));
    }
    return json;
  }

  /** Reads a definition written by {@link #toJson} for the newest revision. */
  public static Prompt fromJson(JsonObject json) {
    List<PromptArgument> args = new ArrayList<>();
    for (Object a : json.getJsonArray("arguments", new JsonArray())) {
      JsonObject arg = (JsonObject) a;
      args.add(new PromptArgument(arg.getString("name"), arg.getString("title"), arg.getString("description"),
          arg.getBoolean("required", false)));
    }
    return new Prompt(json.getString("name"), json.getString("title"), json.getString("description"), args,
        Icon.fromJson(json.getJsonArray("icons")));
  }
}
