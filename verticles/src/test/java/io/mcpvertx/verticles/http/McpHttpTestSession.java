package io.mcpvertx.verticles.http;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One initialized session seen from the client: every request carries {@code Mcp-Session-Id} and the negotiated
 * {@code MCP-Protocol-Version}. Request ids count up from 1 (initialize was 0).
 */
final class McpHttpTestSession {

  private final McpHttpTestClient client;
  private final String id;
  private final String version;
  private final JsonObject initializeResponse;
  private final AtomicLong nextId = new AtomicLong(1);

  McpHttpTestSession(McpHttpTestClient client, String id, String version, JsonObject initializeResponse) {
    this.client = client;
    this.id = id;
    this.version = version;
    this.initializeResponse = initializeResponse;
  }

  McpHttpTestClient client() {
    return client;
  }

  String id() {
    return id;
  }

  String version() {
    return version;
  }

  JsonObject initializeResponse() {
    return initializeResponse;
  }

  /** POST headers for this session. */
  MultiMap postHeaders() {
    return McpHttpTestClient.postHeaders().add("Mcp-Session-Id", id).add("MCP-Protocol-Version", version);
  }

  /** GET headers for this session. */
  MultiMap getHeaders() {
    return MultiMap.caseInsensitiveMultiMap().add("Accept", "text/event-stream").add("Mcp-Session-Id", id)
        .add("MCP-Protocol-Version", version);
  }

  /** A request message with a fresh id. */
  JsonObject request(String method, JsonObject params) {
    JsonObject request = new JsonObject().put("jsonrpc", "2.0").put("id", nextId.getAndIncrement())
        .put("method", method);
    return params == null ? request : request.put("params", params);
  }

  /** A {@code tools/call} request; with a progress token when {@code progressToken} is not null. */
  JsonObject toolCall(String tool, JsonObject arguments, Object progressToken) {
    JsonObject params = new JsonObject().put("name", tool).put("arguments", arguments);
    if (progressToken != null) {
      params.put("_meta", new JsonObject().put("progressToken", progressToken));
    }
    return request("tools/call", params);
  }

  Future<HttpReply> post(JsonObject message) {
    return client.post(postHeaders(), message);
  }

  /** POSTs a body as it is (a batch, or bytes that are not JSON). */
  Future<HttpReply> post(Buffer body) {
    return client.send(HttpMethod.POST, postHeaders(), body);
  }

  Future<HttpReply> post(JsonObject message, MultiMap headers) {
    return client.post(headers, message);
  }

  /** POSTs a message and reads the response as it comes. */
  Future<SseStream> stream(JsonObject message) {
    return client.open(client.options(HttpMethod.POST), postHeaders(), message.toBuffer());
  }

  /** Sends a request and yields its result, after checking the response against the schema. */
  Future<JsonObject> call(String method, JsonObject params) {
    JsonObject request = request(method, params);
    return post(request).map(reply -> {
      List<JsonObject> messages = reply.messages();
      JsonObject response = messages.get(messages.size() - 1);
      HttpChecks.assertSchemaValid(version, response, method);
      if (reply.status() != 200 || !response.containsKey("result")) {
        throw new AssertionError(method + " failed: " + reply);
      }
      return response.getJsonObject("result");
    });
  }

  /** Opens the session's standalone GET stream. */
  Future<SseStream> listen() {
    return client.open(client.options(HttpMethod.GET), getHeaders(), null);
  }

  /** Resumes a stream after {@code lastEventId}. */
  Future<SseStream> resume(String lastEventId) {
    return client.open(client.options(HttpMethod.GET), getHeaders().add("Last-Event-ID", lastEventId), null);
  }

  Future<HttpReply> delete() {
    return client.send(HttpMethod.DELETE, MultiMap.caseInsensitiveMultiMap().add("Mcp-Session-Id", id)
        .add("MCP-Protocol-Version", version), null);
  }

  /** Whether a ping on this session is answered (false once the session is gone: 404). */
  Future<Integer> pingStatus() {
    return post(request("ping", null)).map(HttpReply::status);
  }
}
