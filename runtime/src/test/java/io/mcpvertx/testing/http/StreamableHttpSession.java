package io.mcpvertx.testing.http;

import io.mcpvertx.testing.MessageChecker;
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
public final class StreamableHttpSession {

  private final StreamableHttp client;
  private final String id;
  private final String version;
  private final JsonObject initializeResponse;
  private final AtomicLong nextId;

  /** A session some other client opened, or one made up (to send requests in a session the server never knew). */
  public StreamableHttpSession(StreamableHttp client, String id, String version, JsonObject initializeResponse) {
    this(client, id, version, initializeResponse, new AtomicLong(1));
  }

  private StreamableHttpSession(StreamableHttp client, String id, String version, JsonObject initializeResponse,
      AtomicLong nextId) {
    this.nextId = nextId;
    this.client = client;
    this.id = id;
    this.version = version;
    this.initializeResponse = initializeResponse;
  }

  /** This session, its requests sent to the instance on {@code port} (as a load balancer would route them). */
  public StreamableHttpSession at(int port) {
    return new StreamableHttpSession(client.at(port), id, version, initializeResponse, nextId);
  }

  public StreamableHttp client() {
    return client;
  }

  public String id() {
    return id;
  }

  public String version() {
    return version;
  }

  public JsonObject initializeResponse() {
    return initializeResponse;
  }

  /** POST headers for this session. */
  public MultiMap postHeaders() {
    return StreamableHttp.postHeaders().add("Mcp-Session-Id", id).add("MCP-Protocol-Version", version);
  }

  /** GET headers for this session. */
  public MultiMap getHeaders() {
    return MultiMap.caseInsensitiveMultiMap().add("Accept", "text/event-stream").add("Mcp-Session-Id", id)
        .add("MCP-Protocol-Version", version);
  }

  /** A request message with a fresh id. */
  public JsonObject request(String method, JsonObject params) {
    JsonObject request = new JsonObject().put("jsonrpc", "2.0").put("id", nextId.getAndIncrement())
        .put("method", method);
    return params == null ? request : request.put("params", params);
  }

  /** A {@code tools/call} request; with a progress token when {@code progressToken} is not null. */
  public JsonObject toolCall(String tool, JsonObject arguments, Object progressToken) {
    JsonObject params = new JsonObject().put("name", tool).put("arguments", arguments);
    if (progressToken != null) {
      params.put("_meta", new JsonObject().put("progressToken", progressToken));
    }
    return request("tools/call", params);
  }

  public Future<HttpReply> post(JsonObject message) {
    return client.post(postHeaders(), message);
  }

  /** POSTs a body as it is (a batch, or bytes that are not JSON). */
  public Future<HttpReply> post(Buffer body) {
    return client.send(HttpMethod.POST, postHeaders(), body);
  }

  public Future<HttpReply> post(JsonObject message, MultiMap headers) {
    return client.post(headers, message);
  }

  /** POSTs a message and reads the response as it comes. */
  public Future<SseStream> stream(JsonObject message) {
    return client.open(client.options(HttpMethod.POST), postHeaders(), message.toBuffer());
  }

  /** Sends a request and yields its result, after checking the response against the schema. */
  public Future<JsonObject> call(String method, JsonObject params) {
    JsonObject request = request(method, params);
    return post(request).map(reply -> {
      List<JsonObject> messages = reply.messages();
      JsonObject response = messages.get(messages.size() - 1);
      List<String> problems = MessageChecker.check(version, response, method);
      if (!problems.isEmpty()) {
        throw new AssertionError("schema violations in " + response.encode() + ": " + problems);
      }
      if (reply.status() != 200 || !response.containsKey("result")) {
        throw new AssertionError(method + " failed: " + reply);
      }
      return response.getJsonObject("result");
    });
  }

  /** Opens the session's standalone GET stream. */
  public Future<SseStream> listen() {
    return client.open(client.options(HttpMethod.GET), getHeaders(), null);
  }

  /** Resumes a stream after {@code lastEventId}. */
  public Future<SseStream> resume(String lastEventId) {
    return client.open(client.options(HttpMethod.GET), getHeaders().add("Last-Event-ID", lastEventId), null);
  }

  public Future<HttpReply> delete() {
    return client.send(HttpMethod.DELETE, MultiMap.caseInsensitiveMultiMap().add("Mcp-Session-Id", id)
        .add("MCP-Protocol-Version", version), null);
  }

  /** Whether a ping on this session is answered (false once the session is gone: 404). */
  public Future<Integer> pingStatus() {
    return post(request("ping", null)).map(HttpReply::status);
  }
}
