package io.mcpvertx.verticles.http.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.StatelessServer;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;

/**
 * The 2026-07-28 header checks on any headers and bodies: they never throw, refuse only with the codes the spec
 * gives a request that disagrees with its headers, and let a request through only when its version, method and
 * name headers say what its body says. The duplicate check finds exactly the routing headers given twice.
 */
class StatelessHeadersFuzzTest {

  private static final String VERSION = "2026-07-28";
  private static final Set<Integer> REFUSALS = Set.of(JsonRpcErrorCodes.HEADER_MISMATCH,
      JsonRpcErrorCodes.INVALID_PARAMS, JsonRpcErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
      JsonRpcErrorCodes.CLIENT_CAPABILITY_MISSING, JsonRpcErrorCodes.METHOD_NOT_FOUND,
      JsonRpcErrorCodes.INVALID_REQUEST);
  private static final List<String> METHODS = List.of("tools/call", "tools/list", "prompts/get", "resources/read",
      "tasks/get", "server/discover", "ping");
  private static final List<String> ROUTING = List.of(McpHeaders.PROTOCOL_VERSION.toString(),
      McpHeaders.METHOD.toString(), McpHeaders.NAME.toString(), "Mcp-Param-Region", "Mcp-Param-Count",
      "Mcp-Param-Dry-Run", "Content-Type", "X-Other");

  private static final Vertx VERTX = Vertx.vertx();
  private static final StatelessServer ENGINE = engine();

  private static StatelessServer engine() {
    McpServer server = McpServer.create(VERTX);
    server.tool(Tool.builder("regional").description("Has arguments mirrored in Mcp-Param headers")
            .inputSchema(new JsonObject("""
                {"type": "object",
                 "properties": {
                   "region": {"type": "string", "x-mcp-header": "Region"},
                   "count": {"type": "integer", "x-mcp-header": "Count"},
                   "dry": {"type": "boolean", "x-mcp-header": "Dry-Run"},
                   "nested": {"type": "object", "properties": {"zone": {"type": "string", "x-mcp-header": "Zone"}}}},
                 "required": ["region"]}
                """)).build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text("ok")));
    return server.stateless();
  }

  @AfterAll
  static void closeVertx() {
    VERTX.close();
  }

  @FuzzTest
  void refusesPreciselyAndPassesOnlyAgreeingHeaders(FuzzedDataProvider data) {
    String method = data.consumeBoolean() ? pick(data, METHODS) : data.consumeString(24);
    JsonObject params = new JsonObject();
    if (data.consumeBoolean()) {
      params.put("name", data.consumeBoolean() ? "regional" : data.consumeString(24));
    }
    if (data.consumeBoolean()) {
      params.put("uri", data.consumeString(24));
    }
    JsonObject arguments = new JsonObject();
    if (data.consumeBoolean()) {
      arguments.put("region", data.consumeString(24));
    }
    if (data.consumeBoolean()) {
      arguments.put("count", data.consumeBoolean() ? (Object) data.consumeLong() : (Object) data.consumeDouble());
    }
    if (data.consumeBoolean()) {
      arguments.put("dry", data.consumeBoolean());
    }
    if (data.consumeBoolean()) {
      arguments.put("nested", new JsonObject().put("zone", data.consumeString(16)));
    }
    params.put("arguments", arguments);
    if (data.consumeInt(0, 7) > 0) {
      JsonObject meta = new JsonObject()
          .put(StatelessServer.META_PROTOCOL_VERSION, data.consumeBoolean() ? VERSION : data.consumeString(16))
          .put(StatelessServer.META_CLIENT_CAPABILITIES, new JsonObject());
      params.put("_meta", meta);
    }
    JsonRpcRequest request = new JsonRpcRequest(JsonRpcId.of(1), method, params);

    Map<String, String> headers = new HashMap<>();
    header(data, headers, McpHeaders.PROTOCOL_VERSION.toString(), VERSION);
    header(data, headers, McpHeaders.METHOD.toString(), method);
    header(data, headers, McpHeaders.NAME.toString(), params.getValue("name") instanceof String n ? n : null);
    header(data, headers, "Mcp-Param-Region", arguments.getString("region"));
    header(data, headers, "Mcp-Param-Count", arguments.getValue("count") == null ? null
        : String.valueOf(arguments.getValue("count")));
    header(data, headers, "Mcp-Param-Dry-Run", arguments.getValue("dry") == null ? null
        : String.valueOf(arguments.getValue("dry")));
    header(data, headers, "Mcp-Param-Zone", arguments.getJsonObject("nested") == null ? null
        : arguments.getJsonObject("nested").getString("zone"));

    JsonRpcError refused = StatelessHeaders.check(ENGINE, request,
        name -> headers.get(name.toString().toLowerCase(Locale.ROOT)));
    if (refused != null) {
      assertTrue(REFUSALS.contains(refused.code()), "refused with " + refused.code() + ": " + refused.message());
    } else {
      assertEquals(VERSION, trimmed(headers.get("mcp-protocol-version")), "served with another version header");
      assertEquals(method, trimmed(headers.get("mcp-method")), "served with another method header");
      if (List.of("tools/call", "prompts/get").contains(method) && params.getValue("name") instanceof String name) {
        assertEquals(name, StatelessHeaders.decode(trimmed(headers.get("mcp-name"))), "served with another name");
      }
    }
    StatelessHeaders.decode(data.consumeRemainingAsString());
  }

  @FuzzTest
  void findsExactlyTheRoutingHeadersGivenTwice(FuzzedDataProvider data) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    Map<String, Integer> counts = new HashMap<>();
    int n = data.consumeInt(0, 12);
    for (int i = 0; i < n; i++) {
      String name = data.consumeBoolean() ? pick(data, ROUTING) : data.consumeString(20);
      if (data.consumeBoolean()) {
        name = name.toUpperCase(Locale.ROOT);
      }
      if (name.isEmpty()) {
        continue;
      }
      headers.add(name, data.consumeString(20));
      counts.merge(name.toLowerCase(Locale.ROOT), 1, Integer::sum);
    }
    boolean expected = counts.entrySet().stream().anyMatch(e -> e.getValue() > 1 && routing(e.getKey()));
    assertEquals(expected, StatelessHeaders.repeated(headers) != null, headers::toString);
  }

  private static boolean routing(String lowerName) {
    return lowerName.equals("mcp-protocol-version") || lowerName.equals("mcp-method") || lowerName.equals("mcp-name")
        || lowerName.startsWith("mcp-param-");
  }

  /** Absent, the body's value as it is, padded, base64-encoded, or anything. */
  private static void header(FuzzedDataProvider data, Map<String, String> headers, String name, String value) {
    String sent = switch (data.consumeInt(0, 4)) {
      case 0 -> null;
      case 1 -> value;
      case 2 -> value == null ? null : " " + value + "\t";
      case 3 -> value == null ? null
          : "=?base64?" + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) + "?=";
      default -> data.consumeString(32);
    };
    if (sent != null) {
      headers.put(name.toLowerCase(Locale.ROOT), sent);
    }
  }

  private static String trimmed(String value) {
    return value == null ? null : value.strip();
  }

  private static <T> T pick(FuzzedDataProvider data, List<T> values) {
    return values.get(data.consumeInt(0, values.size() - 1));
  }
}
