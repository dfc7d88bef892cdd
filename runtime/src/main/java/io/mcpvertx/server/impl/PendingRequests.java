package io.mcpvertx.server.impl;

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

  private record Entry(String method, Promise<JsonObject> promise, long timerId) {
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
    entries.put(id, new Entry(method, promise, timer));
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
