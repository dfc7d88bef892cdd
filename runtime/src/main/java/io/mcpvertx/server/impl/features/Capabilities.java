package io.mcpvertx.server.impl.features;

import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.vertx.core.json.JsonObject;

/**
 * What a server offers a client of one revision: only what is registered now, and only what that revision knows.
 * Both generations read it (a 2025 session when it initializes, a 2026-07-28 {@code server/discover}).
 */
public final class Capabilities {

  private final FeatureRegistry registry;

  public Capabilities(FeatureRegistry registry) {
    this.registry = registry;
  }

  /** The capabilities offered to a client of {@code version}. */
  public JsonObject offered(ProtocolVersion version) {
    FeatureRegistry.Snapshot snapshot = registry.snapshot();
    JsonObject capabilities = new JsonObject().put("logging", new JsonObject());
    if (!snapshot.tools().isEmpty()) {
      capabilities.put("tools", new JsonObject().put("listChanged", true));
    }
    if (snapshot.hasResources()) {
      capabilities.put("resources", new JsonObject().put("subscribe", true).put("listChanged", true));
    }
    if (!snapshot.prompts().isEmpty()) {
      capabilities.put("prompts", new JsonObject().put("listChanged", true));
    }
    if (!snapshot.completions().isEmpty() && version.supports(ProtocolFeature.COMPLETIONS)) {
      capabilities.put("completions", new JsonObject());
    }
    if (version.supports(ProtocolFeature.TASKS)
        && snapshot.tools().values().stream().anyMatch(t -> t.tool().execution().allowsTasks())) {
      capabilities.put("tasks", sessionTasks());
    }
    return capabilities;
  }

  /** Whether any completion handler is registered. */
  public boolean completions() {
    return !registry.snapshot().completions().isEmpty();
  }

  /** The 2025-11-25 {@code tasks} capability: tasks may be listed and cancelled, and {@code tools/call} augmented. */
  private static JsonObject sessionTasks() {
    return new JsonObject().put("list", new JsonObject()).put("cancel", new JsonObject())
        .put("requests", new JsonObject().put("tools", new JsonObject().put("call", new JsonObject())));
  }
}
