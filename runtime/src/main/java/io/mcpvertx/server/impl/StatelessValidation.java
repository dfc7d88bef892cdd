package io.mcpvertx.server.impl;

import static io.mcpvertx.server.StatelessServer.META_CLIENT_CAPABILITIES;
import static io.mcpvertx.server.StatelessServer.META_CLIENT_INFO;
import static io.mcpvertx.server.StatelessServer.META_LOG_LEVEL;
import static io.mcpvertx.server.StatelessServer.META_PROTOCOL_VERSION;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.StatelessServer.Rejection;
import io.mcpvertx.server.client.LoggingLevel;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The checks a 2026-07-28 request passes before it is served, in the order the spec's errors imply: the
 * version header, {@code _meta}, header against body version, the version itself, then the routing headers
 * ({@code Mcp-Method}, {@code Mcp-Name}, {@code Mcp-Param-*} for {@code x-mcp-header} arguments).
 */
final class StatelessValidation {

  private static final Pattern BASE64 = Pattern.compile("(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?");

  private StatelessValidation() {
  }

  static Rejection validate(JsonRpcRequest request, Function<String, String> header, JsonArray supported,
      FeatureRegistry.Snapshot snapshot) {
    JsonObject params = request.paramsOrEmpty();
    String headerVersion = header == null ? null : trimmed(header.apply("MCP-Protocol-Version"));
    if (header != null && headerVersion == null) {
      return mismatch("The MCP-Protocol-Version header is required");
    }
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
    if (header != null && !headerVersion.equals(version)) {
      return mismatch("The MCP-Protocol-Version header (" + headerVersion + ") does not match _meta ("
          + version + ")");
    }
    if (!ProtocolVersion.V2026_07_28.id().equals(version)) {
      return new Rejection(400, new JsonRpcError(JsonRpcErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
          "Unsupported protocol version: " + version,
          new JsonObject().put("supported", supported.copy()).put("requested", version)));
    }
    return header == null ? null : routingHeaders(request, params, header, snapshot);
  }

  private static Rejection routingHeaders(JsonRpcRequest request, JsonObject params,
      Function<String, String> header, FeatureRegistry.Snapshot snapshot) {
    String method = trimmed(header.apply("Mcp-Method"));
    if (method == null) {
      return mismatch("The Mcp-Method header is required");
    }
    if (!method.equals(request.method())) {
      return mismatch("The Mcp-Method header (" + method + ") does not match the method " + request.method());
    }
    String nameMember = switch (request.method()) {
      case "tools/call", "prompts/get" -> "name";
      case "resources/read" -> "uri";
      case "tasks/get", "tasks/update", "tasks/cancel" -> "taskId";
      default -> null;
    };
    if (nameMember != null && params.getValue(nameMember) instanceof String expected) {
      String name = decode(trimmed(header.apply("Mcp-Name")));
      if (name == null) {
        return mismatch("The Mcp-Name header is required for " + request.method());
      }
      if (!name.equals(expected)) {
        return mismatch("The Mcp-Name header does not match params." + nameMember);
      }
    }
    if (request.method().equals("tools/call") && params.getValue("name") instanceof String tool) {
      FeatureRegistry.RegisteredTool registered = snapshot.tools().get(tool);
      if (registered != null) {
        return parameterHeaders(registered.tool().inputSchema(), params.getValue("arguments"), header);
      }
    }
    return null;
  }

  /** Arguments whose schema property has {@code x-mcp-header} travel in {@code Mcp-Param-<name>} too. */
  private static Rejection parameterHeaders(JsonObject inputSchema, Object rawArguments,
      Function<String, String> header) {
    JsonObject arguments = rawArguments instanceof JsonObject a ? a : new JsonObject();
    if (!(inputSchema.getValue("properties") instanceof JsonObject properties)) {
      return null;
    }
    for (Map.Entry<String, Object> property : properties) {
      if (!(property.getValue() instanceof JsonObject schema)
          || !(schema.getValue("x-mcp-header") instanceof String suffix)) {
        continue;
      }
      String raw = trimmed(header.apply("Mcp-Param-" + suffix));
      Object value = arguments.getValue(property.getKey());
      if (value == null) {
        if (raw != null) {
          return mismatch("Mcp-Param-" + suffix + " is set but argument " + property.getKey() + " is absent");
        }
        continue;
      }
      if (raw == null) {
        return mismatch("The Mcp-Param-" + suffix + " header is required with argument " + property.getKey());
      }
      String decoded = decode(raw);
      if (decoded == null) {
        return mismatch("The Mcp-Param-" + suffix + " header is not valid base64");
      }
      if (!decoded.equals(String.valueOf(value))) {
        return mismatch("The Mcp-Param-" + suffix + " header does not match argument " + property.getKey());
      }
    }
    return null;
  }

  /**
   * A header value, with the {@code =?base64?...?=} form (for values that are not header-safe) decoded; null if
   * that form holds invalid base64. Anything else is taken literally.
   */
  static String decode(String value) {
    if (value == null || !value.startsWith("=?base64?") || !value.endsWith("?=") || value.length() < 11) {
      return value;
    }
    String encoded = value.substring(9, value.length() - 2);
    if (!BASE64.matcher(encoded).matches()) {
      return null;
    }
    return new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
  }

  private static String trimmed(String value) {
    if (value == null) {
      return null;
    }
    String t = value.strip();
    return t.isEmpty() ? null : t;
  }

  private static Rejection mismatch(String message) {
    return new Rejection(400, new JsonRpcError(JsonRpcErrorCodes.HEADER_MISMATCH, message));
  }

  private static Rejection invalidMeta(String message) {
    return new Rejection(400, new JsonRpcError(JsonRpcErrorCodes.INVALID_PARAMS, "Invalid params: " + message));
  }
}
