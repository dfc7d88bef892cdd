package io.mcpvertx.annotations.impl;

import io.mcpvertx.annotations.AnnotatedFeatures;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceTemplate;
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
  public List<Prompt> prompts() {
    return scanned.prompts().stream().map(PromptBinding::prompt).toList();
  }

  @Override
  public List<Resource> resources() {
    return scanned.resources().stream().map(ResourceBinding::resource).toList();
  }

  @Override
  public List<ResourceTemplate> resourceTemplates() {
    return scanned.templates().stream().map(TemplateBinding::template).toList();
  }

  /** The bindings, for the annotated verticle. */
  Scanned scanned() {
    return scanned;
  }

  @Override
  public AnnotatedFeatures registerOn(McpServer server) {
    scanned.tools().forEach(binding -> binding.registerOn(server));
    scanned.prompts().forEach(binding -> binding.registerOn(server));
    scanned.resources().forEach(binding -> binding.registerOn(server));
    scanned.templates().forEach(binding -> binding.registerOn(server));
    // Completions last: they complete the prompts and templates registered above.
    scanned.completions().forEach(binding -> binding.registerOn(server));
    return this;
  }

  @Override
  public void removeFrom(McpServer server) {
    scanned.tools().forEach(binding -> server.removeTool(binding.tool().name()));
    scanned.prompts().forEach(binding -> server.removePrompt(binding.prompt().name()));
    scanned.resources().forEach(binding -> server.removeResource(binding.resource().uri()));
    scanned.templates().forEach(binding -> server.removeResourceTemplate(binding.template().uriTemplate()));
  }
}
