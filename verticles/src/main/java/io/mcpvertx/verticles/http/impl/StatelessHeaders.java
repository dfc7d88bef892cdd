package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.StatelessServer;
import io.mcpvertx.server.tools.Tool;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The checks a 2026-07-28 POST passes before it is served, its headers against its body and the runtime's checks
 * of the body between them, in the order the spec's errors imply: the version header (-32020), {@code _meta}
 * (-32602, the runtime's), header against {@code _meta} version (-32020), the version itself (-32022, the
 * runtime's), the routing headers {@code Mcp-Method}, {@code Mcp-Name} and {@code Mcp-Param-*} (-32020), then the
 * capabilities the request needs (-32021, the runtime's). Every refusal travels with HTTP 400.
 */
final class StatelessHeaders {

  private static final Pattern BASE64 =
      Pattern.compile("(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?");

  private StatelessHeaders() {
  }

  /**
   * Null when the request may be served; otherwise the error that refuses it.
   *
   * @param header case-insensitive header lookup
   */
  static JsonRpcError check(StatelessServer engine, JsonRpcRequest request, Function<CharSequence, String> header) {
    String headerVersion = trimmed(header.apply(McpHeaders.PROTOCOL_VERSION));
    if (headerVersion == null) {
      return mismatch("The " + McpHeaders.PROTOCOL_VERSION + " header is required");
    }
    JsonRpcError refused = engine.validate(request);
    if (refused != null && refused.code() == JsonRpcErrorCodes.INVALID_PARAMS) {
      return refused; // _meta itself is wrong: there is no version to compare the header with
    }
    String version = request.paramsOrEmpty().getJsonObject("_meta")
        .getString(StatelessServer.META_PROTOCOL_VERSION);
    if (!headerVersion.equals(version)) {
      return mismatch("The " + McpHeaders.PROTOCOL_VERSION + " header (" + headerVersion
          + ") does not match _meta (" + version + ")");
    }
    if (refused != null && refused.code() == JsonRpcErrorCodes.UNSUPPORTED_PROTOCOL_VERSION) {
      return refused;
    }
    JsonRpcError routing = routingHeaders(engine, request, header);
    return routing != null ? routing : refused;
  }

  private static JsonRpcError routingHeaders(StatelessServer engine, JsonRpcRequest request,
      Function<CharSequence, String> header) {
    JsonObject params = request.paramsOrEmpty();
    String rawMethod = header.apply(McpHeaders.METHOD);
    if (!headerSafe(rawMethod)) {
      return unsafe(McpHeaders.METHOD);
    }
    String method = trimmed(rawMethod);
    if (method == null) {
      return mismatch("The " + McpHeaders.METHOD + " header is required");
    }
    if (!method.equals(request.method())) {
      return mismatch("The " + McpHeaders.METHOD + " header (" + method + ") does not match the method "
          + request.method());
    }
    String nameMember = switch (request.method()) {
      case "tools/call", "prompts/get" -> "name";
      case "resources/read" -> "uri";
      case "tasks/get", "tasks/update", "tasks/cancel" -> "taskId";
      default -> null;
    };
    if (nameMember != null && params.getValue(nameMember) instanceof String expected) {
      String raw = header.apply(McpHeaders.NAME);
      if (!headerSafe(raw)) {
        return unsafe(McpHeaders.NAME);
      }
      if (trimmed(raw) == null) {
        return mismatch("The " + McpHeaders.NAME + " header is required for " + request.method());
      }
      String name = decode(trimmed(raw));
      if (name == null) {
        return mismatch("The " + McpHeaders.NAME + " header is not valid base64");
      }
      if (!name.equals(expected)) {
        return mismatch("The " + McpHeaders.NAME + " header does not match params." + nameMember);
      }
    }
    if (request.method().equals("tools/call") && params.getValue("name") instanceof String name) {
      Optional<Tool> tool = engine.tool(name);
      if (tool.isPresent()) {
        return parameterHeaders(tool.get().inputSchema(), params.getValue("arguments"), header);
      }
    }
    return null;
  }

  /**
   * Arguments whose schema property has {@code x-mcp-header} travel in {@code Mcp-Param-<name>} too
   * ({@link ParameterHeaders}); a missing (or null) value expects no header.
   */
  private static JsonRpcError parameterHeaders(JsonObject schema, Object arguments,
      Function<CharSequence, String> header) {
    for (ParameterHeaders.Header expected : ParameterHeaders.of(schema).headers()) {
      JsonRpcError refused = parameterHeader(expected.suffix(), expected.argument(),
          ParameterHeaders.valueAt(arguments, expected.path()), header);
      if (refused != null) {
        return refused;
      }
    }
    return null;
  }

  private static JsonRpcError parameterHeader(String suffix, String argument, Object value,
      Function<CharSequence, String> header) {
    String headerName = McpHeaders.PARAM_PREFIX + suffix;
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

  private static JsonRpcError unsafe(CharSequence headerName) {
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

  /**
   * Null unless a routing header ({@code MCP-Protocol-Version}, {@code Mcp-Method}, {@code Mcp-Name},
   * {@code Mcp-Param-*}) appears more than once: each names one value of the body, so two of them contradict each
   * other or say nothing more, and which one an intermediary reads first is not ours to guess.
   */
  static JsonRpcError repeated(MultiMap headers) {
    // One walk over the headers as they are (no set of names, no list per name): a request has a handful. Vert.x's
    // request headers are Netty's too, whose walk hands over the names as stored; MultiMap's would copy each into
    // a String.
    Iterator<? extends Map.Entry<? extends CharSequence, ? extends CharSequence>> entries =
        headers instanceof HttpHeaders stored ? stored.iteratorCharSequence() : headers.iterator();
    List<CharSequence> seen = null;
    while (entries.hasNext()) {
      CharSequence name = entries.next().getKey();
      // Every routing header starts with "Mcp-" (or "MCP-"): one character tells the others apart.
      char first = name.length() == 0 ? ' ' : name.charAt(0);
      if (first != 'M' && first != 'm') {
        continue;
      }
      boolean routing = AsciiString.contentEqualsIgnoreCase(name, McpHeaders.PROTOCOL_VERSION)
          || AsciiString.contentEqualsIgnoreCase(name, McpHeaders.METHOD)
          || AsciiString.contentEqualsIgnoreCase(name, McpHeaders.NAME)
          || AsciiString.regionMatches(name, true, 0, McpHeaders.PARAM_PREFIX, 0, McpHeaders.PARAM_PREFIX.length());
      if (!routing) {
        continue;
      }
      if (seen == null) {
        seen = new ArrayList<>(4);
      }
      for (CharSequence earlier : seen) {
        if (AsciiString.contentEqualsIgnoreCase(earlier, name)) {
          return mismatch("The " + name + " header appears more than once");
        }
      }
      seen.add(name);
    }
    return null;
  }

  private static JsonRpcError mismatch(String message) {
    return new JsonRpcError(JsonRpcErrorCodes.HEADER_MISMATCH, message);
  }
}
