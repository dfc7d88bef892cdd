package io.mcpvertx.server.impl.features;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where a failure becomes a JSON-RPC error. An {@link McpException} keeps its code and message;
 * anything else is a bug or an outage on our side, so the client gets a generic -32603 and the log gets the
 * details, never the other way round.
 */
public final class ErrorMapper {

  private static final Logger LOG = LoggerFactory.getLogger(ErrorMapper.class);

  private ErrorMapper() {
  }

  public static JsonRpcError toError(Throwable failure, String method) {
    if (failure instanceof McpException mcp) {
      return mcp.error();
    }
    if (failure instanceof IllegalArgumentException iae) {
      // Thrown by our own record constructors when a handler builds an invalid result.
      LOG.warn("Handler for " + method + " built an invalid result", iae);
      return new JsonRpcError(JsonRpcErrorCodes.INTERNAL_ERROR, "Internal error: the handler for " + method
          + " produced an invalid result");
    }
    LOG.error("Handler for " + method + " failed", failure);
    return new JsonRpcError(JsonRpcErrorCodes.INTERNAL_ERROR, "Internal error while handling " + method);
  }
}
