package io.mcpvertx.server.impl.tracing;

import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.tracing.SpanStart;
import io.vertx.core.json.JsonObject;

/** Builds a request's {@link SpanStart}: its low-cardinality target (tool or prompt name) and resource URI. */
public final class SpanTargets {

  private SpanTargets() {
  }

  public static SpanStart of(JsonRpcRequest request, String sessionId, String protocolVersion) {
    JsonObject params = request.params();
    String method = request.method();
    String target = null;
    String uri = null;
    JsonObject meta = null;
    if (params != null) {
      meta = params.getValue("_meta") instanceof JsonObject m ? m : null;
      if ("tools/call".equals(method) || "prompts/get".equals(method)) {
        target = params.getValue("name") instanceof String name ? name : null;
      } else if (method.startsWith("resources/")) {
        uri = params.getValue("uri") instanceof String u ? u : null;
      }
    }
    return new SpanStart(method, target, request.id(), meta, sessionId, protocolVersion, uri, null, null);
  }
}
