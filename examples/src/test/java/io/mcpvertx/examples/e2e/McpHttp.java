package io.mcpvertx.examples.e2e;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small Streamable HTTP client for tests that drive one session through several instances: each call names the
 * instance's port, and the session's headers go with every request.
 */
final class McpHttp {

  static final String VERSION = "2025-11-25";

  /** One SSE event: its id (null if none) and its data (null for a priming event). */
  record Event(String id, JsonObject data) {
  }

  /** A whole response. */
  record Reply(int status, MultiMap headers, String body) {

    /** The JSON-RPC messages it carried: the JSON body, or the data of its SSE events. */
    List<JsonObject> messages() {
      String type = headers.get("Content-Type");
      if (type != null && type.startsWith("text/event-stream")) {
        return events(body).stream().map(Event::data).filter(data -> data != null).toList();
      }
      return body.isBlank() ? List.of() : List.of(new JsonObject(body));
    }

    /** The last message: the response to the request. */
    JsonObject last() {
      List<JsonObject> messages = messages();
      if (messages.isEmpty()) {
        throw new AssertionError("no message in " + this);
      }
      return messages.get(messages.size() - 1);
    }
  }

  private final HttpClient http;
  private final AtomicLong ids = new AtomicLong(1);
  private volatile String sessionId;

  McpHttp(Vertx vertx) {
    this.http = vertx.createHttpClient();
  }

  String sessionId() {
    return sessionId;
  }

  /** initialize and notifications/initialized through the instance on {@code port}. */
  Future<JsonObject> initialize(int port) {
    JsonObject init = new JsonObject().put("jsonrpc", "2.0").put("id", 0).put("method", "initialize")
        .put("params", new JsonObject().put("protocolVersion", VERSION)
            .put("capabilities", new JsonObject().put("tasks", new JsonObject()))
            .put("clientInfo", new JsonObject().put("name", "shared-stores-test").put("version", "1.0.0")));
    return post(port, init).compose(reply -> {
      sessionId = reply.headers().get("Mcp-Session-Id");
      if (reply.status() != 200 || sessionId == null) {
        return Future.failedFuture(new AssertionError("initialize failed: " + reply));
      }
      return post(port, new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized"))
          .map(ack -> reply.last().getJsonObject("result"));
    });
  }

  /** A request message with a fresh id. */
  JsonObject request(String method, JsonObject params) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", ids.getAndIncrement()).put("method", method)
        .put("params", params == null ? new JsonObject() : params);
  }

  /** Sends a request through {@code port} and yields its result; fails on an error or an HTTP failure. */
  Future<JsonObject> call(int port, String method, JsonObject params) {
    return post(port, request(method, params)).compose(reply -> {
      JsonObject last = reply.status() == 200 ? reply.last() : null;
      return last != null && last.containsKey("result") ? Future.succeededFuture(last.getJsonObject("result"))
          : Future.failedFuture(new AssertionError(method + " failed: " + reply));
    });
  }

  Future<Reply> post(int port, JsonObject message) {
    return send(port, HttpMethod.POST, headers().add("Content-Type", "application/json")
        .add("Accept", "application/json, text/event-stream"), message.toBuffer());
  }

  /** POSTs a request and drops the connection once the first event arrives; yields that event. */
  Future<Event> postAndDropAfterFirstEvent(int port, JsonObject message) {
    Promise<Event> first = Promise.promise();
    StringBuilder received = new StringBuilder();
    http.request(options(port, HttpMethod.POST).setHeaders(headers().add("Content-Type", "application/json")
            .add("Accept", "application/json, text/event-stream")))
        .compose(request -> request.send(message.toBuffer()))
        .onFailure(first::tryFail)
        .onSuccess(response -> response.handler(chunk -> {
          received.append(chunk.toString());
          List<Event> events = events(received.toString()).stream().filter(e -> e.data() != null).toList();
          if (!events.isEmpty() && first.tryComplete(events.get(0))) {
            response.request().connection().close();
          }
        }));
    return first.future();
  }

  /** Resumes a stream after {@code lastEventId} through {@code port}, reading it to its end. */
  Future<Reply> resume(int port, String lastEventId) {
    return send(port, HttpMethod.GET, headers().add("Accept", "text/event-stream").add("Last-Event-ID", lastEventId),
        null);
  }

  Future<Reply> delete(int port) {
    return send(port, HttpMethod.DELETE, headers(), null);
  }

  private MultiMap headers() {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    if (sessionId != null) {
      headers.add("Mcp-Session-Id", sessionId).add("MCP-Protocol-Version", VERSION);
    }
    return headers;
  }

  private static RequestOptions options(int port, HttpMethod method) {
    return new RequestOptions().setMethod(method).setHost("127.0.0.1").setPort(port).setURI("/mcp");
  }

  private Future<Reply> send(int port, HttpMethod method, MultiMap headers, Buffer body) {
    return http.request(options(port, method).setHeaders(headers))
        .compose(request -> body == null ? request.send() : request.send(body))
        .compose(response -> response.body().map(b -> new Reply(response.statusCode(), response.headers(),
            b.toString())));
  }

  /** The complete events of an SSE body (a last one without its blank line is left out). */
  static List<Event> events(String body) {
    List<Event> events = new ArrayList<>();
    String[] blocks = body.replace("\r\n", "\n").split("\n\n", -1);
    for (int i = 0; i < blocks.length - 1; i++) {
      String id = null;
      StringBuilder data = null;
      for (String line : blocks[i].split("\n")) {
        if (line.startsWith("id:")) {
          id = line.substring(3).trim();
        } else if (line.startsWith("data:")) {
          data = (data == null ? new StringBuilder() : data.append('\n')).append(line.substring(5).trim());
        }
      }
      if (id != null || data != null) {
        events.add(new Event(id, data == null || data.length() == 0 ? null : new JsonObject(data.toString())));
      }
    }
    return events;
  }
}
