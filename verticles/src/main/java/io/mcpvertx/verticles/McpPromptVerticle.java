package io.mcpvertx.verticles;

import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptResult;
import io.mcpvertx.verticles.impl.RemoteProtocol;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.Map;

/** A prompt as a verticle. Required arguments have been checked by the calling server before {@link #get} runs. */
public abstract class McpPromptVerticle extends McpFeatureVerticle {

  private Prompt prompt;

  protected abstract Prompt prompt();

  protected abstract Future<PromptResult> get(Map<String, String> arguments, RequestContext ctx);

  @Override
  final String kind() {
    return RemoteProtocol.KIND_PROMPT;
  }

  @Override
  final String key() {
    return definitionPrompt().name();
  }

  @Override
  final JsonObject definition() {
    return definitionPrompt().toJson(ProtocolVersion.LATEST);
  }

  @Override
  final Future<JsonObject> serve(JsonObject payload, RequestContext ctx) {
    Map<String, String> arguments = new HashMap<>();
    payload.getJsonObject("arguments", new JsonObject()).forEach(e -> arguments.put(e.getKey(), String.valueOf(e.getValue())));
    return get(arguments, ctx).map(result -> result.toJson(ProtocolVersion.LATEST));
  }

  private Prompt definitionPrompt() {
    if (prompt == null) {
      prompt = prompt();
    }
    return prompt;
  }
}
