package io.mcpvertx.verticles;

import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.verticles.impl.RemoteProtocol;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * A tool as a verticle. Arguments have been validated against the tool's input schema by the calling server
 * before {@link #call} runs.
 *
 * <pre>{@code
 * public class Clock extends McpToolVerticle {
 *   protected Tool tool() { return Tool.builder("clock").description("Current time").build(); }
 *   protected Future<ToolResult> call(JsonObject args, RequestContext ctx) {
 *     return Future.succeededFuture(ToolResult.text(Instant.now().toString()));
 *   }
 * }
 * }</pre>
 */
public abstract class McpToolVerticle extends McpFeatureVerticle {

  private Tool tool;

  protected abstract Tool tool();

  protected abstract Future<ToolResult> call(JsonObject arguments, RequestContext ctx);

  @Override
  final String kind() {
    return RemoteProtocol.KIND_TOOL;
  }

  @Override
  final String key() {
    return definitionTool().name();
  }

  @Override
  final JsonObject definition() {
    return definitionTool().toJson(ProtocolVersion.LATEST);
  }

  @Override
  final Future<JsonObject> serve(JsonObject payload, RequestContext ctx) {
    return call(payload.getJsonObject("arguments", new JsonObject()), ctx)
        .map(result -> result.toJson(ProtocolVersion.LATEST));
  }

  private Tool definitionTool() {
    if (tool == null) {
      tool = tool();
    }
    return tool;
  }
}
