package io.mcpvertx.annotations.impl;

import io.mcpvertx.annotations.AnnotatedFeatures;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.tools.Tool;
import java.util.List;

/** The features of scanned objects, registered on servers as a whole. Immutable. */
public final class AnnotatedFeaturesImpl implements AnnotatedFeatures {

  private final Scanned scanned;

  private AnnotatedFeaturesImpl(Scanned scanned) {
    this.scanned = scanned;
  }

  public static AnnotatedFeaturesImpl scan(List<Object> handlers) {
    return new AnnotatedFeaturesImpl(Scanned.of(handlers));
  }

  @Override
  public List<Tool> tools() {
    return scanned.tools().stream().map(ToolBinding::tool).toList();
  }

  @Override
  public AnnotatedFeatures registerOn(McpServer server) {
    scanned.tools().forEach(binding -> binding.registerOn(server));
    return this;
  }

  @Override
  public void removeFrom(McpServer server) {
    scanned.tools().forEach(binding -> server.removeTool(binding.tool().name()));
  }
}
