package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.http.impl.HttpErrors.Refusal;
import io.mcpvertx.verticles.http.impl.TransferFraming.Problem;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one HTTP verticle knows of its connections, below the requests, so that no connection is held forever:
 *
 * <ul>
 *   <li>the endpoint's connection cap ({@link McpHttpServerOptions#getMaxConnections()}, counted over all its
 *       verticles): a connection past it is closed as soon as it opens;</li>
 *   <li>deadlines, checked by a sweep a few times per shortest deadline: a new connection must send a request head
 *       within {@code requestHeaderTimeoutMs}, a request its whole body within {@code requestBodyTimeoutMs} (else
 *       408), a connection with no request in progress closes after {@code connectionIdleTimeoutMs}; an SSE stream
 *       is exempt from these and cut after {@code maxStreamDurationMs};</li>
 *   <li>each request's framing, checked before the router reads its body ({@link TransferFraming});</li>
 *   <li>each connection's fault when the decoder gave up on it, logged once and rate-limited
 *       ({@link ConnectionFaults}).</li>
 * </ul>
 *
 * Only what Vert.x shows of a connection is used: its requests and their responses. The head of a request is
 * seen once it is complete, so the header deadline runs from the connection's opening, and a client dribbling a
 * head byte by byte (slowloris) is closed by it.
 *
 * <p>Accessed only on its HTTP verticle's event loop: connections and requests of a verticle's server are handled
 * there, and so is the sweep.
 */
final class ConnectionGuard {

  private static final Logger LOG = LoggerFactory.getLogger(ConnectionGuard.class);

  /**
   * A connection's state. Its requests in progress sit in two parallel arrays rather than lists: an HTTP/1.1
   * connection holds one at a time, and this is touched on every request, so no iterator or boxed arrival time.
   */
  private static final class Tracked {
    HttpServerRequest[] requests = new HttpServerRequest[1];
    long[] arrivals = new long[1];
    int size;
    /** When the connection last had no request in progress (or opened). */
    long idleSince;
    /** Whether a request was seen: the idle deadline applies rather than the header one. */
    boolean served;
    /** What the connection failed with, if it did. */
    Throwable fault;

    Tracked(long now) {
      this.idleSince = now;
    }

    void add(HttpServerRequest request, long arrival) {
      if (size == requests.length) {
        requests = Arrays.copyOf(requests, size * 2);
        arrivals = Arrays.copyOf(arrivals, size * 2);
      }
      requests[size] = request;
      arrivals[size] = arrival;
      size++;
    }

    /** Drops the request at {@code index}, keeping the order of the others. */
    void remove(int index) {
      int tail = size - index - 1;
      if (tail > 0) {
        System.arraycopy(requests, index + 1, requests, index, tail);
        System.arraycopy(arrivals, index + 1, arrivals, index, tail);
      }
      requests[--size] = null;
    }
  }

  private final Vertx vertx;
  private final McpHttpServerOptions options;
  /** The endpoint's open connections, over all its verticles. */
  private final AtomicInteger open;
  private final Map<HttpConnection, Tracked> connections = new HashMap<>();
  private final ConnectionFaults faults = new ConnectionFaults();
  private long sweeper = -1;
  private long lastCapWarning = Long.MIN_VALUE;

  ConnectionGuard(Vertx vertx, McpHttpServerOptions options, AtomicInteger open) {
    this.vertx = vertx;
    this.options = options;
    this.open = open;
  }

  /** Starts the deadline sweep; called from the verticle's start. */
  void start() {
    long shortest = Math.min(options.getRequestHeaderTimeoutMs(),
        Math.min(options.getRequestBodyTimeoutMs(), options.getConnectionIdleTimeoutMs()));
    sweeper = vertx.setPeriodic(Math.max(10, Math.min(1_000, shortest / 4)), t -> sweep(now()));
  }

  void stop() {
    vertx.cancelTimer(sweeper);
  }

  /** The server's connection handler. */
  void connected(HttpConnection connection) {
    if (open.incrementAndGet() > options.getMaxConnections()) {
      open.decrementAndGet();
      capReached(connection);
      connection.close();
      return;
    }
    Tracked tracked = new Tracked(now());
    connections.put(connection, tracked);
    connection.exceptionHandler(fault -> {
      tracked.fault = fault;
      faults.record(connection.remoteAddress(), fault);
    });
    connection.closeHandler(v -> {
      connections.remove(connection);
      open.decrementAndGet();
    });
  }

  /**
   * Checks a request before the router sees it: whether its framing can be read, and if not answers it; and
   * starts its body deadline.
   *
   * @return whether the request goes on to the router
   */
  boolean admit(HttpServerRequest request) {
    // A body that fails to decode also fails the request; the connection's handler has logged it already.
    request.exceptionHandler(fault -> { });
    Tracked tracked = connections.get(request.connection());
    if (tracked != null) {
      // Drop the requests already answered first: left for the sweep, a busy keep-alive connection would hold a
      // second's worth of requests (tens of thousands under load), long enough for the collector to promote them.
      forgetAnswered(tracked);
      tracked.add(request, now());
      tracked.served = true;
    }
    if (!TransferFraming.closesConnection(request)) {
      return true;
    }
    // Vert.x keeps an HTTP/1.1 connection open whatever the answer says; a shutdown closes it once this
    // exchange is done, and a request pipelined after this one is dropped unanswered.
    request.response().putHeader("Connection", "close");
    request.connection().shutdown(options.getMaxStreamDurationMs(), TimeUnit.MILLISECONDS);
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

  /** Closes the connections past a deadline. */
  void sweep(long now) {
    List<HttpConnection> expired = new ArrayList<>();
    for (Map.Entry<HttpConnection, Tracked> entry : connections.entrySet()) {
      if (expired(entry.getKey(), entry.getValue(), now)) {
        expired.add(entry.getKey());
      }
    }
    expired.forEach(HttpConnection::close);
  }

  /** Forgets the requests of a connection whose responses have ended (on HTTP/1.1, all but the newest, usually). */
  private static void forgetAnswered(Tracked tracked) {
    for (int i = tracked.size - 1; i >= 0; i--) {
      HttpServerResponse response = tracked.requests[i].response();
      if (response.ended() || response.closed()) {
        tracked.remove(i);
      }
    }
  }

  /** The requests held over all connections, answered or not: what the guard retains between sweeps. */
  int requestsHeld() {
    int held = 0;
    for (Tracked tracked : connections.values()) {
      held += tracked.size;
    }
    return held;
  }

  /** Whether a connection is past a deadline; a request whose body is late is answered 408 on the way. */
  private boolean expired(HttpConnection connection, Tracked tracked, long now) {
    for (int i = 0; i < tracked.size; ) {
      HttpServerRequest request = tracked.requests[i];
      long arrived = tracked.arrivals[i];
      HttpServerResponse response = request.response();
      if (response.ended() || response.closed()) {
        tracked.remove(i);
        if (tracked.size == 0) {
          tracked.idleSince = now;
        }
        continue;
      }
      if (!request.isEnded() && now - arrived >= options.getRequestBodyTimeoutMs()) {
        LOG.atDebug().log(() -> "Closing " + connection.remoteAddress() + ": request body too slow");
        HttpErrors.reject(response, Refusal.REQUEST_TIMEOUT, "Request Timeout: the body did not arrive within "
            + options.getRequestBodyTimeoutMs() + " ms");
        return true;
      } else if (isStream(response) && now - arrived >= options.getMaxStreamDurationMs()) {
        LOG.atDebug().log(() -> "Cutting a stream of " + connection.remoteAddress() + " at its maximum duration");
        if (request.version() == HttpVersion.HTTP_2) {
          response.reset();
        } else {
          return true;
        }
      }
      i++;
    }
    if (tracked.size > 0) {
      return false;
    }
    long limit = tracked.served ? options.getConnectionIdleTimeoutMs() : options.getRequestHeaderTimeoutMs();
    if (now - tracked.idleSince >= limit) {
      LOG.atDebug().log(() -> "Closing " + connection.remoteAddress()
          + (tracked.served ? ": idle" : ": no request head in time"));
      return true;
    }
    return false;
  }

  private static boolean isStream(HttpServerResponse response) {
    String type = response.headWritten() ? response.headers().get(HttpHeaders.CONTENT_TYPE) : null;
    return type != null && type.startsWith("text/event-stream");
  }

  /** One WARN line per window when the cap turns connections away; DEBUG for the others. */
  private void capReached(HttpConnection connection) {
    long now = now();
    boolean warn = lastCapWarning == Long.MIN_VALUE || now - lastCapWarning >= ConnectionFaults.WINDOW_MS;
    if (warn) {
      lastCapWarning = now;
    }
    LOG.atLevel(warn ? Level.WARN : Level.DEBUG).log(() -> "Refused a connection from " + connection.remoteAddress()
        + ": the endpoint holds " + options.getMaxConnections() + " connections (maxConnections)");
  }

  private static long now() {
    return System.nanoTime() / 1_000_000;
  }
}
