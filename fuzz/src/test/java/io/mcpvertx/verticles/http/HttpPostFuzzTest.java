package io.mcpvertx.verticles.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;

/**
 * The HTTP POST endpoint end to end, in this JVM over loopback: any body with any of the media types and routing
 * headers a client may send, on a 2025 session, without one, or as a 2026-07-28 request. Every POST is answered
 * within the hang limit, never with a server error (5xx other than a refusal for capacity) nor -32603, and every
 * JSON answer is JSON-RPC.
 */
class HttpPostFuzzTest {

  private static final String SESSION_VERSION = "2025-11-25";
  private static final String MODERN = "2026-07-28";
  /** An answer later than this is a hang. */
  private static final long HANG_MS = 10_000;
  private static final Set<Integer> STATUSES = Set.of(200, 202, 400, 403, 404, 405, 406, 409, 413, 415, 501, 503);
  private static final List<String> CONTENT_TYPES = List.of("application/json", "application/json; charset=utf-8",
      "text/plain", "application/json-seq", "");
  private static final List<String> ACCEPTS = List.of("application/json, text/event-stream", "application/json",
      "text/event-stream", "*/*", "application/json;q=0, text/event-stream;q=0");
  private static final List<String> METHODS = List.of("tools/call", "tools/list", "server/discover", "prompts/get",
      "resources/read", "ping", "initialize");

  private static final Vertx VERTX = Vertx.vertx();
  private static final McpHttpServer SERVER = start();
  private static final HttpClient CLIENT = VERTX.createHttpClient(new HttpClientOptions().setKeepAlive(true),
      new PoolOptions().setHttp1MaxSize(4));
  private static final Context CONTEXT = VERTX.getOrCreateContext();
  private static String session;
  /** The last exchanges, told with a finding: what a connection carried before may be what broke it. */
  private static final ArrayDeque<String> RECENT = new ArrayDeque<>();

  private static McpHttpServer start() {
    McpServer mcp = McpServer.create(VERTX);
    mcp.tool(Tool.builder("echo").description("Echoes text")
            .inputSchema(new JsonObject("""
                {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
                """)).build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text(args.getString("text"))));
    mcp.tool(Tool.builder("regional").description("Has an argument mirrored in an Mcp-Param header")
            .inputSchema(new JsonObject("""
                {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}
                """)).build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text("region " + args.getString("region"))));
    // Sessions the fuzzer opens go away soon, so a long run holds a bounded table.
    McpHttpServerOptions options = new McpHttpServerOptions().setPort(0).setMaxSessions(100_000)
        .setMaxSessionsPerClient(100_000).setInitializeTimeoutMs(2_000).setSessionIdleTimeoutMs(10_000);
    return await(McpHttpServer.create(VERTX, mcp, options).listen());
  }

  @AfterAll
  static void stop() {
    await(CLIENT.close().compose(v -> SERVER.close()).compose(v -> VERTX.close()));
  }

  @FuzzTest
  void answersEveryPostPreciselyAndInTime(FuzzedDataProvider data) {
    RequestOptions request = new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1")
        .setPort(SERVER.actualPort()).setURI("/mcp");
    request.putHeader("Content-Type", data.consumeBoolean() ? pick(data, CONTENT_TYPES) : headerSafe(data, 40));
    request.putHeader("Accept", data.consumeBoolean() ? pick(data, ACCEPTS) : headerSafe(data, 40));
    switch (data.consumeInt(0, 2)) {
      case 0 -> {
        request.putHeader("Mcp-Session-Id", data.consumeBoolean() ? session() : headerSafe(data, 40));
        request.putHeader("MCP-Protocol-Version", data.consumeBoolean() ? SESSION_VERSION : headerSafe(data, 12));
      }
      case 1 -> { }
      default -> {
        request.putHeader("MCP-Protocol-Version", data.consumeBoolean() ? MODERN : headerSafe(data, 12));
        request.putHeader("Mcp-Method", data.consumeBoolean() ? pick(data, METHODS) : headerSafe(data, 20));
        if (data.consumeBoolean()) {
          request.putHeader("Mcp-Name", headerSafe(data, 20));
        }
        if (data.consumeBoolean()) {
          request.putHeader("Mcp-Param-Region", headerSafe(data, 20));
        }
      }
    }
    byte[] body = data.consumeRemainingAsBytes();
    Answer answer = RawHttp.exchange(SERVER.actualPort(), request, body, HANG_MS, RECENT);
    remember("answered " + answer.status + " to " + request.getHeaders() + "\n" + new String(body,
        StandardCharsets.ISO_8859_1));
    assertTrue(STATUSES.contains(answer.status), () -> "HTTP " + answer.status + ": " + answer.body);
    String type = answer.type == null ? "" : answer.type;
    if (type.startsWith("application/json")) {
      checkJsonRpc(answer.body.toString());
    } else if (type.startsWith("text/event-stream")) {
      for (String line : answer.body.toString().split("\n")) {
        if (line.startsWith("data:") && !line.substring(5).isBlank()) {
          checkJsonRpc(line.substring(5));
        }
      }
    }
  }

  private static void remember(String exchange) {
    if (RECENT.size() == 8) {
      RECENT.removeFirst();
    }
    RECENT.addLast(exchange);
  }

  record Answer(int status, String type, Buffer body) {
  }

  private static void checkJsonRpc(String text) {
    Object json;
    try {
      json = Json.decodeValue(text);
    } catch (DecodeException e) {
      throw new AssertionError("an answer that is not JSON: " + text, e);
    }
    if (json instanceof JsonArray batch) {
      batch.forEach(member -> checkMessage((JsonObject) member, text));
    } else {
      checkMessage((JsonObject) json, text);
    }
  }

  private static void checkMessage(JsonObject message, String text) {
    assertEquals("2.0", message.getString("jsonrpc"), text);
    if (message.getValue("error") instanceof JsonObject error) {
      assertNotEquals(JsonRpcErrorCodes.INTERNAL_ERROR, error.getInteger("code"), text);
    }
  }

  /** The id of an initialized 2025 session, opened again when it has expired. */
  private static String session() {
    if (session != null && isLive(session)) {
      return session;
    }
    Buffer init = new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "initialize")
        .put("params", new JsonObject().put("protocolVersion", SESSION_VERSION).put("capabilities", new JsonObject())
            .put("clientInfo", new JsonObject().put("name", "fuzz").put("version", "1"))).toBuffer();
    String id = await(post(init, null).map(r -> r.getHeader("Mcp-Session-Id")));
    Buffer initialized = new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized").toBuffer();
    await(post(initialized, id));
    session = id;
    return id;
  }

  private static boolean isLive(String id) {
    Buffer ping = new JsonObject().put("jsonrpc", "2.0").put("id", 2).put("method", "ping").toBuffer();
    return await(post(ping, id).map(r -> r.statusCode() == 200));
  }

  private static Future<HttpClientResponse> post(Buffer body, String id) {
    RequestOptions request = new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1")
        .setPort(SERVER.actualPort()).setURI("/mcp").putHeader("Content-Type", "application/json")
        .putHeader("Accept", "application/json, text/event-stream");
    if (id != null) {
      request.putHeader("Mcp-Session-Id", id).putHeader("MCP-Protocol-Version", SESSION_VERSION);
    }
    // All of it on the client's context: composed from the fuzzer's thread, the body would be asked for after a
    // quick answer had ended on the event loop, and that future never completes (the "stall" seen in long runs).
    Promise<HttpClientResponse> answered = Promise.promise();
    CONTEXT.runOnContext(v -> CLIENT.request(request).compose(r -> r.send(body)).compose(r -> r.body().map(b -> r))
        .onComplete(answered));
    return answered.future();
  }

  /** What a client can put in a header: visible ASCII, space and tab. */
  private static String headerSafe(FuzzedDataProvider data, int max) {
    String raw = data.consumeString(max);
    StringBuilder safe = new StringBuilder(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      safe.append(c == '\t' || (c >= 0x20 && c < 0x7F) ? c : '?');
    }
    return safe.toString();
  }

  private static <T> T pick(FuzzedDataProvider data, List<T> values) {
    return values.get(data.consumeInt(0, values.size() - 1));
  }

  private static <T> T await(Future<T> future) {
    return await(future, "a request of the harness");
  }

  private static <T> T await(Future<T> future, String sent) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(HANG_MS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      // What the connections carried before is what to look at: the harness's own requests follow fuzzed ones.
      return fail("no answer within " + HANG_MS + " ms to " + sent + "; the last exchanges before it:\n"
          + String.join("\n---\n", RECENT));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new AssertionError("the exchange failed: " + sent, e.getCause());
    }
  }
}
