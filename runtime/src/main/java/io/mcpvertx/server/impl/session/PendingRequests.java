package io.mcpvertx.server.impl.session;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.MessageSink;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

/**
 * The server-to-client requests of one session that await an answer, keyed by the id we gave them.
 *
 * <p>Bounded in number; each has a timer, and on timeout the client is told with {@code notifications/cancelled}.
 * Confined to the session's context.
 */
final class PendingRequests {

  /** One unanswered request; {@code origin} is the client request it was made for (null if none). */
  private record Entry(String method, Promise<JsonObject> promise, long timerId, JsonRpcId origin,
      MessageSink sink) {
  }

  private final Vertx vertx;
  private final long timeoutMs;
  private final int max;
  private final Map<JsonRpcId, Entry> entries = new HashMap<>();
  private long nextId = 1;

  PendingRequests(Vertx vertx, long timeoutMs, int max) {
    this.vertx = vertx;
    this.timeoutMs = timeoutMs;
    this.max = max;
  }

  Future<JsonObject> send(String method, JsonObject params, MessageSink sink) {
    return send(method, params, sink, null);
  }

  /** Sends a request made while serving the client request {@code origin}, so it ends when that one does. */
  Future<JsonObject> send(String method, JsonObject params, MessageSink sink, JsonRpcId origin) {
    if (entries.size() >= max) {
      return Future.failedFuture(new McpException(JsonRpcErrorCodes.SERVER_OVERLOADED,
          "Too many unanswered server-to-client requests (limit " + max + ")"));
    }
    JsonRpcId id = JsonRpcId.of(nextId++);
    Promise<JsonObject> promise = Promise.promise();
    long timer = vertx.setTimer(timeoutMs, t -> {
      if (entries.remove(id) != null) {
        sink.send(new JsonRpcNotification("notifications/cancelled",
            new JsonObject().put("requestId", id.wireValue()).put("reason", "Timed out after " + timeoutMs + " ms")));
        promise.fail(new McpException(JsonRpcErrorCodes.REQUEST_TIMEOUT,
            "The client did not answer " + method + " within " + timeoutMs + " ms"));
      }
    });
    entries.put(id, new Entry(method, promise, timer, origin, sink));
    sink.send(new JsonRpcRequest(id, method, params));
    return promise.future();
  }

  /** Completes the matching request; false when no request has that id (the caller logs and drops it). */
  boolean complete(JsonRpcResponse response) {
    Entry entry = entries.remove(response.id());
    if (entry == null) {
      return false;
    }
    vertx.cancelTimer(entry.timerId());
    entry.promise().complete(response.result());
    return true;
  }

  boolean fail(JsonRpcErrorResponse response) {
    Entry entry = response.id() == null ? null : entries.remove(response.id());
    if (entry == null) {
      return false;
    }
    vertx.cancelTimer(entry.timerId());
    entry.promise().fail(new McpException(response.error()));
    return true;
  }

  /**
   * The client cancelled {@code origin}: the requests made for it are withdrawn (the client is told with
   * {@code notifications/cancelled}) and fail, so they hold no slot until their timeout.
   */
  void cancelFor(JsonRpcId origin, String reason) {
    entries.entrySet().removeIf(e -> {
      Entry entry = e.getValue();
      if (!origin.equals(entry.origin())) {
        return false;
      }
      vertx.cancelTimer(entry.timerId());
      entry.sink().send(new JsonRpcNotification("notifications/cancelled",
          new JsonObject().put("requestId", e.getKey().wireValue()).put("reason", reason)));
      entry.promise().fail(new McpException(JsonRpcErrorCodes.REQUEST_CANCELLED, reason));
      return true;
    });
  }

  void failAll(String reason) {
    for (Entry entry : new ArrayList<>(entries.values())) {
      vertx.cancelTimer(entry.timerId());
      entry.promise().fail(new McpException(JsonRpcErrorCodes.REQUEST_CANCELLED, reason));
    }
    entries.clear();
  }

  int size() {
    return entries.size();
  }
}
