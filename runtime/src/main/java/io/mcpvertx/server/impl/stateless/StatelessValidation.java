package io.mcpvertx.server.impl.stateless;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.StatelessServer.Rejection;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.impl.features.FeatureRegistry;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

import static io.mcpvertx.server.StatelessServer.META_CLIENT_CAPABILITIES;
import static io.mcpvertx.server.StatelessServer.META_CLIENT_INFO;
import static io.mcpvertx.server.StatelessServer.META_LOG_LEVEL;
import static io.mcpvertx.server.StatelessServer.META_PROTOCOL_VERSION;

/**
 * The checks a 2026-07-28 request passes before it is served, in the order the spec's errors imply: the
 * version header, {@code _meta}, header against body version, the version itself, then the routing headers
 * ({@code Mcp-Method}, {@code Mcp-Name}, {@code Mcp-Param-*} for {@code x-mcp-header} arguments).
 */
final class StatelessValidation {

  private static final Pattern BASE64 =
      Pattern.compile("(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?");

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
    String rawMethod = header.apply("Mcp-Method");
    if (!headerSafe(rawMethod)) {
      return unsafe("Mcp-Method");
    }
    String method = trimmed(rawMethod);
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
      String raw = header.apply("Mcp-Name");
      if (!headerSafe(raw)) {
        return unsafe("Mcp-Name");
      }
      if (trimmed(raw) == null) {
        return mismatch("The Mcp-Name header is required for " + request.method());
      }
      String name = decode(trimmed(raw));
      if (name == null) {
        return mismatch("The Mcp-Name header is not valid base64");
      }
      if (!name.equals(expected)) {
        return mismatch("The Mcp-Name header does not match params." + nameMember);
      }
    }
    if (request.method().equals("tools/call") && params.getValue("name") instanceof String tool) {
      FeatureRegistry.RegisteredTool registered = snapshot.tools().get(tool);
      if (registered != null) {
        return parameterHeaders(registered.tool().inputSchema(), params.getValue("arguments"), header, "");
      }
    }
    return null;
  }

  /**
   * Arguments whose schema property has {@code x-mcp-header} travel in {@code Mcp-Param-<name>} too. Such
   * properties may sit at any depth reachable through {@code properties} alone; the value is read at the same
   * path of the arguments, and a missing (or null) value expects no header.
   */
  private static Rejection parameterHeaders(JsonObject schema, Object values, Function<String, String> header,
      String path) {
    if (!(schema.getValue("properties") instanceof JsonObject properties)) {
      return null;
    }
    JsonObject arguments = values instanceof JsonObject a ? a : new JsonObject();
    for (Map.Entry<String, Object> entry : properties) {
      if (!(entry.getValue() instanceof JsonObject property)) {
        continue;
      }
      String name = path + entry.getKey();
      Object value = arguments.getValue(entry.getKey());
      if (property.getValue("x-mcp-header") instanceof String suffix) {
        Rejection rejection = parameterHeader(suffix, name, value, header);
        if (rejection != null) {
          return rejection;
        }
      }
      if (property.getValue("properties") instanceof JsonObject) {
        Rejection rejection = parameterHeaders(property, value, header, name + ".");
        if (rejection != null) {
          return rejection;
        }
      }
    }
    return null;
  }

  private static Rejection parameterHeader(String suffix, String argument, Object value,
      Function<String, String> header) {
    String headerName = "Mcp-Param-" + suffix;
    String raw = header.apply(headerName);
    if (!headerSafe(raw)) {
      return unsafe(headerName);
    }
    String trimmed = trimmed(raw);
    if (value == null) {
      return trimmed == null ? null
          : mismatch(headerName + " is set but argument " + argument + " is absent");
    }
    if (trimmed == null) {
      return mismatch("The " + headerName + " header is required with argument " + argument);
    }
    String decoded = decode(trimmed);
    if (decoded == null) {
      return mismatch("The " + headerName + " header is not valid base64");
    }
    if (!matches(decoded, value)) {
      return mismatch("The " + headerName + " header does not match argument " + argument);
    }
    return null;
  }

  /** Strings and booleans compare as text; numbers by value, so 42 and 42.0 match. */
  private static boolean matches(String header, Object value) {
    if (value instanceof Number number) {
      try {
        return new BigDecimal(header).compareTo(new BigDecimal(number.toString())) == 0;
      } catch (NumberFormatException e) {
        return false;
      }
    }
    return header.equals(String.valueOf(value));
  }

  /** RFC 9110 field values: visible ASCII, space and tab only. A missing header is safe. */
  private static boolean headerSafe(String value) {
    if (value == null) {
      return true;
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c != '\t' && (c < 0x20 || c > 0x7E)) {
        return false;
      }
    }
    return true;
  }

  private static Rejection unsafe(String headerName) {
    return mismatch("The " + headerName + " header holds characters a header value may not carry; values that "
        + "are not plain ASCII travel as =?base64?...?=");
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
