package io.mcpvertx.examples.e2e.cluster;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * JSON-RPC over Streamable HTTP, one blocking POST at a time, each to the endpoint it names: enough to drive one
 * session or one task through several instances. A session's id and revision go with every request once
 * {@link #initialize} set them; 2026-07-28 requests carry their routing headers and {@code _meta} instead.
 */
final class WireClient {

  static final String SESSIONS = "2025-11-25";
  static final String STATELESS = "2026-07-28";
  static final String TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

  /** A whole response: its status and the JSON-RPC messages it carried (the JSON body or the SSE events' data). */
  record Reply(int status, String sessionId, String body, List<JsonObject> messages) {

    /** The response to the request: the last message. */
    JsonObject last() {
      if (messages.isEmpty()) {
        throw new AssertionError("no message in " + this);
      }
      return messages.get(messages.size() - 1);
    }

    /** The result of the response; fails, showing the reply, on an error or an HTTP failure. */
    JsonObject result() {
      if (status != 200 || !last().containsKey("result")) {
        throw new AssertionError("expected a result: " + this);
      }
      return last().getJsonObject("result");
    }
  }

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final AtomicLong ids = new AtomicLong(1);
  private String sessionId;

  String sessionId() {
    return sessionId;
  }

  /** initialize, then notifications/initialized, through {@code url}, with the tasks capability. */
  JsonObject initialize(String url) throws Exception {
    JsonObject params = new JsonObject().put("protocolVersion", SESSIONS)
        .put("capabilities", new JsonObject().put("tasks", new JsonObject()))
        .put("clientInfo", new JsonObject().put("name", "cluster-e2e").put("version", "1.0.0"));
    Reply reply = post(url, request("initialize", params), Map.of());
    if (reply.status() != 200 || reply.sessionId() == null) {
      throw new AssertionError("initialize failed: " + reply);
    }
    sessionId = reply.sessionId();
    Reply ack = post(url, new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized"),
        Map.of());
    if (ack.status() != 202) {
      throw new AssertionError("notifications/initialized: " + ack);
    }
    return reply.result();
  }

  JsonObject request(String method, JsonObject params) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", ids.getAndIncrement()).put("method", method)
        .put("params", params == null ? new JsonObject() : params);
  }

  /** A request in the session, through {@code url}. */
  Reply call(String url, String method, JsonObject params) throws Exception {
    return post(url, request(method, params), Map.of());
  }

  /**
   * A 2026-07-28 request through {@code url}: {@code _meta} with the revision, a client and the tasks extension,
   * and the {@code Mcp-Method} / {@code Mcp-Name} routing headers ({@code name} may be null).
   */
  Reply stateless(String url, String method, String name, JsonObject params) throws Exception {
    JsonObject meta = new JsonObject()
        .put("io.modelcontextprotocol/protocolVersion", STATELESS)
        .put("io.modelcontextprotocol/clientInfo", new JsonObject().put("name", "cluster-e2e").put("version", "1"))
        .put("io.modelcontextprotocol/clientCapabilities", new JsonObject()
            .put("extensions", new JsonObject().put(TASKS_EXTENSION, new JsonObject())));
    JsonObject message = request(method, params.copy().put("_meta", meta));
    Map<String, String> headers = name == null
        ? Map.of("MCP-Protocol-Version", STATELESS, "Mcp-Method", method)
        : Map.of("MCP-Protocol-Version", STATELESS, "Mcp-Method", method, "Mcp-Name", name);
    return post(url, message, headers);
  }

  private Reply post(String url, JsonObject message, Map<String, String> extraHeaders) throws IOException,
      InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(message.encode()));
    if (sessionId != null && !extraHeaders.containsKey("MCP-Protocol-Version")) {
      request.header("Mcp-Session-Id", sessionId).header("MCP-Protocol-Version", SESSIONS);
    }
    extraHeaders.forEach(request::header);
    HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    String type = response.headers().firstValue("Content-Type").orElse("");
    String body = response.body();
    List<JsonObject> messages = type.startsWith("text/event-stream") ? events(body)
        : body.isBlank() ? List.of() : List.of(new JsonObject(body));
    return new Reply(response.statusCode(), response.headers().firstValue("Mcp-Session-Id").orElse(null), body,
        messages);
  }

  /** The data of the complete events of an SSE body (priming events, which carry none, left out). */
  private static List<JsonObject> events(String body) {
    List<JsonObject> messages = new ArrayList<>();
    String[] blocks = body.replace("\r\n", "\n").split("\n\n", -1);
    for (int i = 0; i < blocks.length - 1; i++) {
      StringBuilder data = null;
      for (String line : blocks[i].split("\n")) {
        if (line.startsWith("data:")) {
          data = (data == null ? new StringBuilder() : data.append('\n')).append(line.substring(5).trim());
        }
      }
      if (data != null && data.length() > 0) {
        messages.add(new JsonObject(data.toString()));
      }
    }
    return messages;
  }
}
