package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.verticles.http.impl.TransferFraming.Problem;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What one HTTP verticle knows of its connections, below the requests: each connection's fault when the decoder
 * gave up on it (logged once, rate-limited, by {@link ConnectionFaults}), and the framing of each request checked
 * before the router reads its body ({@link TransferFraming}).
 *
 * <p>Accessed only on its HTTP verticle's event loop: connections and requests of a verticle's server are
 * handled there.
 */
final class ConnectionGuard {

  /**
   * How long a connection that must close after its answer may take to give it; past that it is closed anyway.
   * Long enough for an answer streamed as events.
   */
  private static final long LAST_EXCHANGE_LIMIT_MS = TimeUnit.MINUTES.toMillis(30);

  /** A connection's state. */
  private static final class Tracked {
    /** What the connection failed with, if it did. */
    Throwable fault;
  }

  private final Map<HttpConnection, Tracked> connections = new HashMap<>();
  private final ConnectionFaults faults = new ConnectionFaults();

  /** The server's connection handler. */
  void connected(HttpConnection connection) {
    Tracked tracked = new Tracked();
    connections.put(connection, tracked);
    connection.exceptionHandler(fault -> {
      tracked.fault = fault;
      faults.record(connection.remoteAddress(), fault);
    });
    connection.closeHandler(v -> connections.remove(connection));
  }

  /**
   * Checks a request before the router sees it: whether its framing can be read, and if not answers it.
   *
   * @return whether the request goes on to the router
   */
  boolean admit(HttpServerRequest request) {
    // A body that fails to decode also fails the request; the connection's handler has logged it already.
    request.exceptionHandler(fault -> { });
    if (!TransferFraming.closesConnection(request)) {
      return true;
    }
    // Vert.x keeps an HTTP/1.1 connection open whatever the answer says; a shutdown closes it once this
    // exchange is done, and a request pipelined after this one is dropped unanswered.
    request.response().putHeader("Connection", "close");
    request.connection().shutdown(LAST_EXCHANGE_LIMIT_MS, TimeUnit.MILLISECONDS);
    Problem problem = TransferFraming.check(request);
    if (problem == null) {
      return true;
    }
    HttpErrors.reject(request.response(), problem.refusal(), problem.message());
    return false;
  }

  /**
   * Whether a request failed because its connection did (its body could not be decoded): the client's doing,
   * logged already.
   */
  boolean isConnectionFault(HttpServerRequest request, Throwable failure) {
    Tracked tracked = connections.get(request.connection());
    return failure != null && tracked != null && tracked.fault == failure;
  }
}
