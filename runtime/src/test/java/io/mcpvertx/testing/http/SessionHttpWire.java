package io.mcpvertx.testing.http;

import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * {@link StreamableHttp#sessionClient}: one POST per frame. The session id comes from the answer to
 * {@code initialize}; from then on it goes with every request, with the revision the client negotiated. SSE events
 * are handed to the client as they arrive (so it can answer the server's requests while a call is open); a JSON
 * body once complete; a 202 carries nothing.
 *
 * <p>Used on the client's context only (the client calls {@link #send} there, and the HTTP client answers there).
 */
final class SessionHttpWire implements McpTestClient.Wire {

  private final StreamableHttp http;
  private final McpTestClient client;
  private String sessionId;

  SessionHttpWire(StreamableHttp http, McpTestClient client) {
    this.http = http;
    this.client = client;
  }

  @Override
  public void send(Buffer frame) {
    MultiMap headers = StreamableHttp.postHeaders();
    if (sessionId != null) {
      headers.add("Mcp-Session-Id", sessionId).add("MCP-Protocol-Version", client.version());
    }
    int expected = expectedStatus(frame);
    http.open(http.options(HttpMethod.POST), headers, frame).onSuccess(stream -> {
      if (expected != 0 && stream.status() != expected) {
        client.violations().add("HTTP " + stream.status() + ", not " + expected + ", for " + frame);
      }
      if (sessionId == null && stream.headers().get("Mcp-Session-Id") != null) {
        sessionId = stream.headers().get("Mcp-Session-Id");
      }
      stream.forEach(event -> {
        if (event.hasMessage()) {
          client.receive(Buffer.buffer(event.data()));
        }
      });
      stream.reply().onSuccess(reply -> {
        if ("application/json".equals(reply.contentType()) && reply.body().length() > 0) {
          client.receive(reply.body());
        }
      });
    }).onFailure(e -> client.violations().add("the POST of " + frame + " failed: " + e));
  }

  @Override
  public String sessionId() {
    return sessionId;
  }

  /**
   * What Streamable HTTP answers a frame with: 200 (JSON or SSE) when it holds a request, 202 when it holds only
   * notifications and responses; 0 (not checked) for bytes that are not JSON-RPC, which tests send on purpose.
   */
  private static int expectedStatus(Buffer frame) {
    Object json;
    try {
      json = Json.decodeValue(frame);
    } catch (DecodeException e) {
      return 0;
    }
    if (json instanceof JsonObject message) {
      return isRequest(message) ? 200 : 202;
    }
    if (json instanceof JsonArray batch && !batch.isEmpty()) {
      return batch.stream().anyMatch(m -> m instanceof JsonObject message && isRequest(message)) ? 200 : 202;
    }
    return 0;
  }

  private static boolean isRequest(JsonObject message) {
    return message.containsKey("method") && message.containsKey("id");
  }

  @Override
  public Future<Void> close() {
    if (sessionId == null) {
      return Future.succeededFuture();
    }
    return http.send(HttpMethod.DELETE, MultiMap.caseInsensitiveMultiMap().add("Mcp-Session-Id", sessionId)
        .add("MCP-Protocol-Version", client.version()), null).mapEmpty();
  }
}
