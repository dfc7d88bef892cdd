package io.mcpvertx.protocol;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;

/**
 * A failure that becomes a JSON-RPC error response. Handlers fail their future with one to choose the code; any
 * other exception becomes -32603 with a generic message (the details go to the log, never to the client).
 *
 * <p>These are expected conditions, so no stack trace is captured.
 */
public class McpException extends RuntimeException {

  private final transient JsonRpcError error;

  public McpException(JsonRpcError error) {
    super(error.message(), null, false, false);
    this.error = error;
  }

  public McpException(int code, String message) {
    this(new JsonRpcError(code, message));
  }

  public McpException(int code, String message, Object data) {
    this(new JsonRpcError(code, message, data));
  }

  public JsonRpcError error() {
    return error;
  }

  public int code() {
    return error.code();
  }

  public static McpException invalidParams(String message) {
    return new McpException(JsonRpcErrorCodes.INVALID_PARAMS, message);
  }

  public static McpException methodNotFound(String method) {
    return new McpException(JsonRpcErrorCodes.METHOD_NOT_FOUND, "Method not found: " + method);
  }

  public static McpException invalidRequest(String message) {
    return new McpException(JsonRpcErrorCodes.INVALID_REQUEST, message);
  }

  public static McpException internal(String message) {
    return new McpException(JsonRpcErrorCodes.INTERNAL_ERROR, message);
  }
}
