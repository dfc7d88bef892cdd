package io.mcpvertx.verticles.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.testing.LogCapture;
import io.mcpvertx.testing.StatelessTestClient;
import io.mcpvertx.testing.http.HttpReply;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.verticles.stdio.StdioServer;
import io.mcpvertx.verticles.stdio.StdioServerOptions;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad-input catalogue: each malformed or contradictory input, over HTTP to the 2025 session generation, over
 * HTTP to 2026-07-28, and over stdio, with the answer it gets (HTTP status and JSON-RPC error code), and never a
 * stack trace in the log: a client's mistake is not a server fault. docs/security.md lists the same table.
 */
@ExtendWith(VertxExtension.class)
class BadInputCatalogueTest {

  /** Where an input goes. */
  enum Via { HTTP_2025, HTTP_2026, STDIO }

  private static final String MODERN = StatelessTestClient.VERSION;
  private static final int BODY_LIMIT = 64 * 1024;

  /** One input: over HTTP a method, headers to set or remove (a null value) and a body; over stdio the body. */
  record Case(String name, Via via, HttpMethod method, List<Header> headers, byte[] body, int status,
      Integer code) {

    @Override
    public String toString() {
      return via + ": " + name;
    }
  }

  /** What is logged, from every logger, while a test runs. */
  private LogCapture logs;

  @BeforeEach
  void catchTraces() {
    logs = LogCapture.start();
  }

  @AfterEach
  void releaseTraces() {
    logs.close();
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** A tools/call of echo whose text holds these raw bytes. */
  private static byte[] echoWithBytes(int... raw) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(utf8("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
        + "\"arguments\":{\"text\":\"a"));
    for (int b : raw) {
      out.write(b);
    }
    out.writeBytes(utf8("b\"}}}"));
    return out.toByteArray();
  }

  private static String nested(int depth) {
    return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":"
        + "{\"text\":\"x\",\"deep\":" + "[".repeat(depth) + "]".repeat(depth) + "}}}";
  }

  private static String batchOf(int n) {
    List<String> members = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      members.add("{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"ping\"}");
    }
    return "[" + String.join(",", members) + "]";
  }

  /** Malformed bodies, the same answer on every transport: the codec decides before anything else. */
  private static List<Object[]> bodies() {
    return List.of(
        new Object[] {"truncated object", utf8("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\""), -32700},
        new Object[] {"not JSON at all", utf8("hello"), -32700},
        new Object[] {"garbage after the object", utf8("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} x"),
            -32700},
        new Object[] {"a JSON string", utf8("\"ping\""), -32600},
        new Object[] {"a JSON number", utf8("42"), -32600},
        new Object[] {"JSON null", utf8("null"), -32600},
        new Object[] {"an empty batch", utf8("[]"), -32600},
        new Object[] {"jsonrpc 1.0", utf8("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}"), -32600},
        new Object[] {"no jsonrpc member", utf8("{\"id\":1,\"method\":\"ping\"}"), -32600},
        new Object[] {"neither method nor result", utf8("{\"jsonrpc\":\"2.0\",\"id\":1}"), -32600},
        new Object[] {"method a number", utf8("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}"), -32600},
        new Object[] {"id an object", utf8("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}"), -32600},
        new Object[] {"id a boolean", utf8("{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}"), -32600},
        new Object[] {"id 1.0", utf8("{\"jsonrpc\":\"2.0\",\"id\":1.0,\"method\":\"ping\"}"), -32600},
        new Object[] {"id 1.5", utf8("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}"), -32600},
        new Object[] {"params a string", utf8("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":\"x\"}"),
            -32602},
        new Object[] {"method given twice", utf8("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\","
            + "\"method\":\"tools/list\"}"), -32700},
        new Object[] {"a member twice inside params", utf8("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
            + "\"params\":{\"name\":\"echo\",\"name\":\"progress\"}}"), -32700},
        new Object[] {"overlong UTF-8 C0 AF", echoWithBytes(0xC0, 0xAF), -32700},
        new Object[] {"overlong UTF-8 E0 80 AF", echoWithBytes(0xE0, 0x80, 0xAF), -32700},
        new Object[] {"encoded surrogate ED A0 80", echoWithBytes(0xED, 0xA0, 0x80), -32700},
        new Object[] {"byte FF", echoWithBytes(0xFF), -32700},
        new Object[] {"stray continuation byte 80", echoWithBytes(0x80), -32700},
        new Object[] {"code point beyond U+10FFFF (F4 90 80 80)", echoWithBytes(0xF4, 0x90, 0x80, 0x80), -32700},
        new Object[] {"nesting 100 deep", utf8(nested(100)), -32600},
        new Object[] {"a batch of 101", utf8(batchOf(101)), -32600});
  }

  /** A header to set, or with a null value to remove. */
  record Header(String name, String value) {
  }

  private static Header header(String name, String value) {
    return new Header(name, value);
  }

  static Stream<Case> cases() {
    List<Case> cases = new ArrayList<>();
    List<Header> modern = List.of(header("MCP-Protocol-Version", MODERN));
    for (Object[] body : bodies()) {
      String name = (String) body[0];
      byte[] bytes = (byte[]) body[1];
      int code = (Integer) body[2];
      cases.add(new Case(name, Via.HTTP_2025, HttpMethod.POST, List.of(), bytes, 400, code));
      cases.add(new Case(name, Via.HTTP_2026, HttpMethod.POST, modern, bytes, 400, code));
      cases.add(new Case(name, Via.STDIO, null, List.of(), bytes, 0, code));
    }
    byte[] ping = utf8("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
    byte[] init = StreamableHttp.initializeRequest("2025-11-25").toBuffer().getBytes();
    cases.add(new Case("Content-Type text/plain", Via.HTTP_2025, HttpMethod.POST,
        List.of(header("Content-Type", "text/plain")), init, 415, -32000));
    cases.add(new Case("no Content-Type", Via.HTTP_2025, HttpMethod.POST, List.of(header("Content-Type", null)),
        init, 415, -32000));
    cases.add(new Case("Accept application/json only", Via.HTTP_2025, HttpMethod.POST,
        List.of(header("Accept", "application/json")), init, 406, -32000));
    cases.add(new Case("Accept text/event-stream only", Via.HTTP_2025, HttpMethod.POST,
        List.of(header("Accept", "text/event-stream")), init, 406, -32000));
    cases.add(new Case("no Accept", Via.HTTP_2025, HttpMethod.POST, List.of(header("Accept", null)), init, 406,
        -32000));
    cases.add(new Case("Accept with q=0 on event streams", Via.HTTP_2025, HttpMethod.POST,
        List.of(header("Accept", "application/json, text/event-stream;q=0")), init, 406, -32000));
    // Found by the HTTP fuzz target: a range that is only parameters once failed the request unanswered.
    cases.add(new Case("Accept of parameters only", Via.HTTP_2025, HttpMethod.POST,
        List.of(header("Accept", ";")), init, 406, -32000));
    cases.add(new Case("Accept of empty ranges", Via.HTTP_2025, HttpMethod.POST,
        List.of(header("Accept", ";q=1, ;, ,")), init, 406, -32000));
    cases.add(new Case("PUT", Via.HTTP_2025, HttpMethod.PUT, List.of(), init, 405, -32000));
    cases.add(new Case("a body over maxBodyBytes", Via.HTTP_2025, HttpMethod.POST, List.of(),
        utf8("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(BODY_LIMIT)
            + "\"}}"), 413, -32000));
    cases.add(new Case("Origin of another site", Via.HTTP_2025, HttpMethod.POST,
        List.of(header("Origin", "http://evil.example")), init, 403, -32000));
    cases.add(new Case("initialize carrying Mcp-Session-Id", Via.HTTP_2025, HttpMethod.POST,
        List.of(header("Mcp-Session-Id", "abc")), init, 400, -32600));
    cases.add(new Case("Mcp-Session-Id unknown", Via.HTTP_2025, HttpMethod.POST,
        List.of(header("Mcp-Session-Id", "no-such-session"), header("MCP-Protocol-Version", "2025-11-25")), ping,
        404, -32000));
    cases.add(new Case("a request without a session", Via.HTTP_2025, HttpMethod.POST, List.of(), ping, 400,
        -32000));
    cases.add(new Case("GET without a session", Via.HTTP_2025, HttpMethod.GET,
        List.of(header("Accept", "text/event-stream")), null, 400, -32000));
    cases.add(new Case("DELETE without a session", Via.HTTP_2025, HttpMethod.DELETE, List.of(), null, 400, -32000));

    JsonObject meta = StatelessTestClient.meta(StatelessTestClient.ALL_CAPABILITIES);
    byte[] list = utf8(new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/list")
        .put("params", new JsonObject().put("_meta", meta)).encode());
    byte[] listNoMeta = utf8("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}");
    byte[] listFuture = utf8(new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/list")
        .put("params", new JsonObject().put("_meta", meta.copy().put(StatelessTestClient.META_VERSION,
            "2099-01-01"))).encode());
    byte[] unknownMethod = utf8(new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "no/such")
        .put("params", new JsonObject().put("_meta", meta)).encode());
    byte[] listMetaNotObject = utf8("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":"
        + "\"" + MODERN + "\"}}");
    List<Header> listHeaders = List.of(header("MCP-Protocol-Version", MODERN), header("Mcp-Method", "tools/list"));
    cases.add(new Case("tools/list without _meta", Via.HTTP_2026, HttpMethod.POST, listHeaders, listNoMeta, 400,
        -32602));
    cases.add(new Case("_meta naming an unknown revision", Via.HTTP_2026, HttpMethod.POST,
        List.of(header("MCP-Protocol-Version", "2099-01-01"), header("Mcp-Method", "tools/list")), listFuture, 400,
        -32022));
    cases.add(new Case("Mcp-Method differing from the body", Via.HTTP_2026, HttpMethod.POST,
        List.of(header("MCP-Protocol-Version", MODERN), header("Mcp-Method", "tools/call")), list, 400, -32020));
    cases.add(new Case("MCP-Protocol-Version differing from _meta", Via.HTTP_2026, HttpMethod.POST,
        List.of(header("MCP-Protocol-Version", "2025-11-25"), header("Mcp-Method", "tools/list")), list, 400,
        -32020));
    cases.add(new Case("a batch", Via.HTTP_2026, HttpMethod.POST, modern, utf8("[" + new String(list,
        StandardCharsets.UTF_8) + "]"), 400, -32600));
    cases.add(new Case("a method 2026-07-28 does not have", Via.HTTP_2026, HttpMethod.POST,
        List.of(header("MCP-Protocol-Version", MODERN), header("Mcp-Method", "no/such")), unknownMethod, 404,
        -32601));
    cases.add(new Case("GET", Via.HTTP_2026, HttpMethod.GET, modern, null, 405, -32000));
    cases.add(new Case("DELETE", Via.HTTP_2026, HttpMethod.DELETE, modern, null, 405, -32000));

    cases.add(new Case("a 2025 request before initialize", Via.STDIO, null, List.of(), utf8(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"), 0, -32600));
    cases.add(new Case("_meta naming an unknown revision", Via.STDIO, null, List.of(), listFuture, 0, -32022));
    cases.add(new Case("_meta that is not an object", Via.STDIO, null, List.of(), listMetaNotObject, 0, -32600));
    cases.add(new Case("a method 2026-07-28 does not have", Via.STDIO, null, List.of(), unknownMethod, 0, -32601));
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void answersEachBadInputPreciselyWithoutAStackTrace(Case input, Vertx vertx, VertxTestContext test) {
    Future<JsonObject> answered = input.via() == Via.STDIO ? overStdio(vertx, input) : overHttp(vertx, input);
    answered.onComplete(test.succeeding(error -> test.verify(() -> {
      assertNotNull(error, () -> input + ": no error answered");
      assertEquals(input.code(), error.getInteger("code"), () -> input + ": " + error.encode());
      assertTrue(logs.traces().isEmpty(), () -> input + ": stack logs.traces() logged: " + logs.traces().stream()
          .map(r -> r.logger() + ": " + r.message() + " " + r.thrown()).toList());
      test.completeNow();
    })));
  }

  /** The JSON-RPC error of the reply, after checking its status. */
  private static Future<JsonObject> overHttp(Vertx vertx, Case input) {
    return HttpTestServer.start(vertx, new McpHttpServerOptions().setMaxBodyBytes(BODY_LIMIT)).compose(server -> {
      MultiMap headers = StreamableHttp.postHeaders();
      for (Header header : input.headers()) {
        if (header.value() == null) {
          headers.remove(header.name());
        } else {
          headers.set(header.name(), header.value());
        }
      }
      Buffer body = input.body() == null ? null : Buffer.buffer(input.body());
      return server.client().send(input.method(), headers, body).map(reply -> {
        assertEquals(input.status(), reply.status(), () -> input + ": " + reply);
        return errorOf(reply);
      });
    });
  }

  private static JsonObject errorOf(HttpReply reply) {
    List<JsonObject> messages = reply.messages();
    return messages.isEmpty() ? null : messages.get(0).getJsonObject("error");
  }

  /** The first error written to the output, once the input (the line, then its end) is read and answered. */
  private static Future<JsonObject> overStdio(Vertx vertx, Case input) {
    McpServer mcp = McpServer.create(vertx);
    new TestTools().register(mcp);
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    line.writeBytes(input.body());
    line.write('\n');
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    return StdioServer.create(vertx, mcp, new StdioServerOptions().setRedirectSystemOut(false))
        .serve(new ByteArrayInputStream(line.toByteArray()), out)
        .map(v -> out.toString(StandardCharsets.UTF_8).lines().map(JsonObject::new)
            .filter(m -> m.containsKey("error")).map(m -> m.getJsonObject("error")).findFirst().orElse(null));
  }
}
