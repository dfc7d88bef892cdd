package io.mcpvertx.server.impl.session;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The client's requests a session is serving, by id, and who waits for there to be none (a transport handing the
 * session over, or shutting down). Confined to the session's context, like the session.
 */
final class InFlightRequests {

  private final Map<JsonRpcId, SessionRequestContext> requests = new HashMap<>();
  private List<Promise<Void>> idleWaiters;

  int size() {
    return requests.size();
  }

  boolean contains(JsonRpcId id) {
    return requests.containsKey(id);
  }

  void add(SessionRequestContext ctx) {
    requests.put(ctx.requestId(), ctx);
  }

  /** Removes the request if it is still the one in progress under its id. */
  void remove(SessionRequestContext ctx) {
    requests.remove(ctx.requestId(), ctx);
  }

  /** Removes and returns the request in progress under {@code id}, or null. */
  SessionRequestContext remove(JsonRpcId id) {
    return requests.remove(id);
  }

  /** Removes every request (the session closed). */
  List<SessionRequestContext> removeAll() {
    List<SessionRequestContext> all = new ArrayList<>(requests.values());
    requests.clear();
    return all;
  }

  /** Completes when no request is in progress. */
  Future<Void> idle() {
    if (requests.isEmpty()) {
      return Future.succeededFuture();
    }
    if (idleWaiters == null) {
      idleWaiters = new ArrayList<>(1);
    }
    Promise<Void> promise = Promise.promise();
    idleWaiters.add(promise);
    return promise.future();
  }

  /** Completes the waiters of {@link #idle()} if no request is in progress (call it once one has been answered). */
  void wakeIfIdle() {
    if (idleWaiters != null && requests.isEmpty()) {
      List<Promise<Void>> waiters = idleWaiters;
      idleWaiters = null;
      waiters.forEach(Promise::tryComplete);
    }
  }
}
