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
import java.util.Map;

/**
 * The checks a 2026-07-28 request's body passes before it is served, in the order the spec's errors imply:
 * {@code _meta} (-32602), then the version it names (-32022). What a transport carries beside the body (HTTP's
 * routing headers) is the transport's to check.
 */
final class StatelessValidation {

  private static final Object ABSENT = new Object();

  private StatelessValidation() {
  }

  /** Null when the body may be served; otherwise the error that refuses it. */
  static JsonRpcError validate(JsonRpcRequest request, JsonArray supported) {
    JsonObject params = request.paramsOrEmpty();
    if (!(params.getValue("_meta") instanceof JsonObject meta)) {
      return invalidMeta("params._meta is required, with " + META_PROTOCOL_VERSION + " and "
          + META_CLIENT_CAPABILITIES);
    }
    // Each member looked up once (absent and null told apart by ABSENT): this runs on every request.
    Map<String, Object> members = meta.getMap();
    if (!(meta.getValue(META_PROTOCOL_VERSION) instanceof String version)) {
      return invalidMeta("_meta." + META_PROTOCOL_VERSION + " is required");
    }
    if (!isObject(members.get(META_CLIENT_CAPABILITIES))) {
      return invalidMeta("_meta." + META_CLIENT_CAPABILITIES + " is required (an object; {} declares none)");
    }
    Object info = members.getOrDefault(META_CLIENT_INFO, ABSENT);
    if (info != ABSENT && !isObject(info)) {
      return invalidMeta("_meta." + META_CLIENT_INFO + " must be an object");
    }
    Object level = members.getOrDefault(META_LOG_LEVEL, ABSENT);
    if (level != ABSENT && (!(level instanceof CharSequence name)
        || LoggingLevel.fromWireName(name.toString()).isEmpty())) {
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

  /** An object as {@link JsonObject#getValue} would return one: the raw map is read, not wrapped. */
  private static boolean isObject(Object value) {
    return value instanceof JsonObject || value instanceof Map;
  }

  private static JsonRpcError invalidMeta(String message) {
    return new JsonRpcError(JsonRpcErrorCodes.INVALID_PARAMS, "Invalid params: " + message);
  }
}
