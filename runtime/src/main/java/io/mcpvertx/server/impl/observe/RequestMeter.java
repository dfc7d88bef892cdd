package io.mcpvertx.server.impl.observe;

import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.impl.features.ErrorMapper;
import io.mcpvertx.server.impl.features.FeatureRegistry;
import io.mcpvertx.server.observe.McpObserver;
import io.vertx.core.AsyncResult;
import io.vertx.core.json.JsonObject;

/**
 * What an engine reports of a request it served: the labels an {@link McpObserver} gets, computed only when one is
 * installed. Stateless helpers; called on the request's context.
 */
public final class RequestMeter {

  private static final String TOOLS_CALL = "tools/call";

  private RequestMeter() {
  }

  /** Reports a request whose result (or failure) is {@code ar}. */
  public static void served(McpObserver observer, FeatureRegistry registry, String method, JsonObject params,
      ProtocolVersion version, long startNanos, AsyncResult<JsonObject> ar) {
    String errorType;
    if (ar.failed()) {
      errorType = Integer.toString(ErrorMapper.toError(ar.cause(), method).code());
    } else {
      errorType = isToolError(method, ar.result()) ? McpObserver.TOOL_ERROR : null;
    }
    observer.requestServed(method, tool(registry, method, params), version, errorType,
        System.nanoTime() - startNanos);
  }

  /** Reports a request answered by {@code response}, a response or an error response. */
  public static void answered(McpObserver observer, FeatureRegistry registry, String method, JsonObject params,
      ProtocolVersion version, long startNanos, JsonRpcMessage response) {
    String errorType;
    if (response instanceof JsonRpcErrorResponse error) {
      errorType = Integer.toString(error.error().code());
    } else {
      errorType = response instanceof JsonRpcResponse ok && isToolError(method, ok.result())
          ? McpObserver.TOOL_ERROR : null;
    }
    observer.requestServed(method, tool(registry, method, params), version, errorType,
        System.nanoTime() - startNanos);
  }

  /** Reports a request refused before it was served, with the JSON-RPC error {@code code}. */
  public static void refused(McpObserver observer, FeatureRegistry registry, String method, JsonObject params,
      ProtocolVersion version, int code) {
    observer.requestServed(method, tool(registry, method, params), version, Integer.toString(code), 0);
  }

  /** The tool label: the name of a registered tool, {@link McpObserver#OTHER} for any other; null off tools/call. */
  static String tool(FeatureRegistry registry, String method, JsonObject params) {
    if (!TOOLS_CALL.equals(method)) {
      return null;
    }
    Object name = params == null ? null : params.getValue("name");
    return name instanceof String s && registry.snapshot().tools().containsKey(s) ? s : McpObserver.OTHER;
  }

  private static boolean isToolError(String method, Object result) {
    return TOOLS_CALL.equals(method) && result instanceof JsonObject json
        && Boolean.TRUE.equals(json.getValue("isError"));
  }
}
