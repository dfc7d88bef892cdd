package io.mcpvertx.server.impl.session;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.McpServerOptions;
import io.vertx.core.json.JsonObject;

/** The {@code initialize} request of a 2025 session: what it must carry, and what the server answers. */
final class Handshake {

  private Handshake() {
  }

  /** Why {@code params} is not a valid {@code initialize}, or null when it is. */
  static JsonRpcError problem(JsonObject params) {
    if (!(params.getValue("protocolVersion") instanceof String)) {
      return invalid("Invalid params: initialize needs a string \"protocolVersion\"");
    }
    if (params.containsKey("capabilities") && !(params.getValue("capabilities") instanceof JsonObject)) {
      return invalid("Invalid params: \"capabilities\" must be an object");
    }
    if (params.getValue("clientInfo") != null && !(params.getValue("clientInfo") instanceof JsonObject info
        && isStringOrAbsent(info, "name") && isStringOrAbsent(info, "version"))) {
      return invalid("Invalid params: \"clientInfo\" must be an object with a string \"name\" and \"version\"");
    }
    return null;
  }

  /** The result of {@code initialize} for a session that agreed on {@code version}. */
  static JsonObject result(ProtocolVersion version, JsonObject capabilities, McpServerOptions options) {
    JsonObject result = new JsonObject()
        .put("protocolVersion", version.id())
        .put("capabilities", capabilities)
        .put("serverInfo", options.getServerInfo().toJson(version));
    if (options.getInstructions() != null) {
      result.put("instructions", options.getInstructions());
    }
    return result;
  }

  private static JsonRpcError invalid(String message) {
    return new JsonRpcError(JsonRpcErrorCodes.INVALID_PARAMS, message);
  }

  private static boolean isStringOrAbsent(JsonObject json, String member) {
    Object value = json.getValue(member);
    return value == null || value instanceof String;
  }
}
