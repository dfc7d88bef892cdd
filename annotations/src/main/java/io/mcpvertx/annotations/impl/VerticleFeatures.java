package io.mcpvertx.annotations.impl;

import io.mcpvertx.annotations.HandlerDefinitionException;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptResult;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceResult;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.verticles.McpPromptVerticle;
import io.mcpvertx.verticles.McpResourceVerticle;
import io.mcpvertx.verticles.McpToolVerticle;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The features of an annotated verticle, each served by a feature verticle that lives inside it: started and
 * stopped with it, on its own context (so calls are served where the verticle's state lives), announcing itself
 * and answering calls on the event bus as any feature verticle does.
 */
public final class VerticleFeatures {

  private final List<VerticleBase> parts;

  private VerticleFeatures(List<VerticleBase> parts) {
    this.parts = parts;
  }

  public static VerticleFeatures of(Object verticle) {
    Scanned scanned = Scanned.of(List.of(verticle));
    if (!scanned.templates().isEmpty() || !scanned.completions().isEmpty()) {
      String where = !scanned.templates().isEmpty() ? scanned.templates().get(0).where()
          : scanned.completions().get(0).where();
      throw new HandlerDefinitionException(verticle.getClass().getName() + ": " + where + ": resource templates and "
          + "completions are not served from a verticle; register them on a server with AnnotatedFeatures");
    }
    List<VerticleBase> parts = new ArrayList<>();
    scanned.tools().forEach(binding -> parts.add(new ToolPart(binding)));
    scanned.prompts().forEach(binding -> parts.add(new PromptPart(binding)));
    scanned.resources().forEach(binding -> parts.add(new ResourcePart(binding)));
    return new VerticleFeatures(List.copyOf(parts));
  }

  /** Starts every part on the verticle's context. */
  public Future<?> start(Vertx vertx, Context context) {
    List<Future<?>> started = new ArrayList<>();
    for (VerticleBase part : parts) {
      part.init(vertx, context);
      try {
        started.add(part.start());
      } catch (Exception e) {
        started.add(Future.failedFuture(e));
      }
    }
    return Future.all(started);
  }

  public Future<?> stop() {
    List<Future<?>> stopped = new ArrayList<>();
    for (VerticleBase part : parts) {
      try {
        stopped.add(part.stop());
      } catch (Exception e) {
        stopped.add(Future.failedFuture(e));
      }
    }
    return Future.all(stopped);
  }

  private static final class ToolPart extends McpToolVerticle {
    private final ToolBinding binding;

    ToolPart(ToolBinding binding) {
      this.binding = binding;
    }

    @Override
    protected Tool tool() {
      return binding.tool();
    }

    @Override
    protected Future<ToolResult> call(JsonObject arguments, RequestContext ctx) {
      return binding.handler().call(arguments, ctx);
    }
  }

  private static final class PromptPart extends McpPromptVerticle {
    private final PromptBinding binding;

    PromptPart(PromptBinding binding) {
      this.binding = binding;
    }

    @Override
    protected Prompt prompt() {
      return binding.prompt();
    }

    @Override
    protected Future<PromptResult> get(Map<String, String> arguments, RequestContext ctx) {
      return binding.handler().get(arguments, ctx);
    }
  }

  private static final class ResourcePart extends McpResourceVerticle {
    private final ResourceBinding binding;

    ResourcePart(ResourceBinding binding) {
      this.binding = binding;
    }

    @Override
    protected Resource resource() {
      return binding.resource();
    }

    @Override
    protected Future<ResourceResult> read(String uri, RequestContext ctx) {
      return binding.handler().read(uri, ctx);
    }
  }
}
