package io.mcpvertx.server.impl.tasks;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.impl.features.ErrorMapper;
import io.mcpvertx.spi.tasks.TaskStoreException;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** How task store failures and failed handlers become JSON-RPC errors, on both wires. */
public final class TaskErrors {

  private static final Logger LOG = LoggerFactory.getLogger(TaskErrors.class);

  private TaskErrors() {
  }

  /** A JSON-RPC error for a store failure; the store's own words stay in the log. */
  public static Throwable storeError(Throwable e, String action) {
    if (e instanceof McpException) {
      return e;
    }
    if (e instanceof TaskStoreException t) {
      switch (t.reason()) {
        case LIMIT_EXCEEDED:
          return new McpException(JsonRpcErrorCodes.SERVER_OVERLOADED, "Too many active tasks: " + t.getMessage());
        case INVALID_CURSOR:
          return McpException.invalidParams("Invalid params: invalid cursor");
        case UNAVAILABLE:
          LOG.warn("Task store unavailable: could not " + action + ": " + t.getMessage());
          return McpException.internal("Task store unavailable: could not " + action + "; try again later");
        default:
          break;
      }
    }
    LOG.error("Task store failed to " + action, e);
    return McpException.internal("Internal error: could not " + action);
  }

  /** The JSON-RPC error object a failed handler's outcome is stored as. */
  public static JsonObject errorJson(Throwable failure, String method) {
    return ErrorMapper.toError(failure, method).toJson();
  }
}
