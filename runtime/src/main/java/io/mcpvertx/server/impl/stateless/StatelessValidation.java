package io.mcpvertx.server.impl.stateless;

import static io.mcpvertx.server.StatelessServer.META_CLIENT_CAPABILITIES;
import static io.mcpvertx.server.StatelessServer.META_CLIENT_INFO;
import static io.mcpvertx.server.StatelessServer.META_LOG_LEVEL;
import static io.mcpvertx.server.StatelessServer.META_PROTOCOL_VERSION;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.impl.features.ProgressTracker;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The checks a 2026-07-28 request's body passes before it is served, in the order the spec's errors imply:
 * {@code _meta} (-32602), then the version it names (-32022). What a transport carries beside the body (HTTP's
 * routing headers) is the transport's to check.
 */
final class StatelessValidation {

  private StatelessValidation() {
  }

  /** Null when the body may be served; otherwise the error that refuses it. */
  static JsonRpcError validate(JsonRpcRequest request, JsonArray supported) {
    JsonObject params = request.paramsOrEmpty();
    if (!(params.getValue("_meta") instanceof JsonObject meta)) {
      return invalidMeta("params._meta is required, with " + META_PROTOCOL_VERSION + " and "
          + META_CLIENT_CAPABILITIES);
    }
    if (!(meta.getValue(META_PROTOCOL_VERSION) instanceof String version)) {
      return invalidMeta("_meta." + META_PROTOCOL_VERSION + " is required");
    }
    if (!(meta.getValue(META_CLIENT_CAPABILITIES) instanceof JsonObject)) {
      return invalidMeta("_meta." + META_CLIENT_CAPABILITIES + " is required (an object; {} declares none)");
    }
    if (meta.containsKey(META_CLIENT_INFO) && !(meta.getValue(META_CLIENT_INFO) instanceof JsonObject)) {
      return invalidMeta("_meta." + META_CLIENT_INFO + " must be an object");
    }
    if (meta.containsKey(META_LOG_LEVEL) && (!(meta.getValue(META_LOG_LEVEL) instanceof String level)
        || LoggingLevel.fromWireName(level).isEmpty())) {
      return invalidMeta("_meta." + META_LOG_LEVEL + " is not a logging level");
    }
    String invalidToken = ProgressTracker.invalidToken(meta);
    if (invalidToken != null) {
      return invalidMeta(invalidToken);
    }
    if (!ProtocolVersion.V2026_07_28.id().equals(version)) {
      return new JsonRpcError(JsonRpcErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
          "Unsupported protocol version: " + version,
          new JsonObject().put("supported", supported.copy()).put("requested", version));
    }
    return null;
  }

  private static JsonRpcError invalidMeta(String message) {
    return new JsonRpcError(JsonRpcErrorCodes.INVALID_PARAMS, "Invalid params: " + message);
  }
}
