package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.server.observe.McpObserver;
import io.mcpvertx.spi.EventStore;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.http.impl.cluster.SessionOwnership;
import io.mcpvertx.verticles.http.impl.cluster.StreamProducers;
import io.mcpvertx.verticles.http.impl.session.SessionEvents;
import io.mcpvertx.verticles.http.impl.session.SessionTable;
import io.vertx.core.Vertx;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the HTTP verticles of one endpoint share, wired once: the session table and where sessions publish, the
 * cluster's ownership of sessions when there is one, stream ids, the request guard, the readiness checks and the
 * count of open connections. Each part is thread-safe; this holder is immutable.
 */
final class HttpEndpoint {

  final Vertx vertx;
  final McpServer server;
  final McpHttpServerOptions options;
  final JsonRpcCodec codec;
  final RequestGuard guard;
  final EventStore events;
  final SessionTable sessions;
  final SessionEvents streams;
  final StreamProducers producers;
  final ReadinessChecks readiness;
  /** The server's observer when the endpoint was made (observers are installed before transports start); or null. */
  final McpObserver observer;
  /** The endpoint's open connections, over all its verticles, against {@code maxConnections}. */
  final AtomicInteger connections = new AtomicInteger();
  /**
   * Clustered (shared stores and a server that is a deployment {@link McpInstance} that owns sessions): which
   * instance runs each session. Null otherwise.
   */
  private final SessionOwnership ownership;

  HttpEndpoint(Vertx vertx, McpServer server, McpHttpServerOptions options, McpStores stores) {
    this.vertx = vertx;
    this.server = server;
    this.options = options;
    this.codec = server.codec();
    this.guard = new RequestGuard(options);
    this.events = stores.events();
    this.sessions = new SessionTable(vertx, server, options, events, stores.sessions());
    this.streams = sessions.streams();
    McpInstance instance = sessions.shared()
        ? server.instance().filter(i -> i.options().isOwnsSessions()).orElse(null) : null;
    this.ownership = instance == null ? null
        : new SessionOwnership(vertx, instance, sessions, events, options.getMaxSessions());
    this.producers = new StreamProducers(vertx, instance, streams, codec);
    this.readiness = new ReadinessChecks(stores, server.instance());
    this.observer = server.observer().orElse(null);
  }

  /** Starts the timers of the session table (and of ownership); called once, from the first verticle's context. */
  void start() {
    sessions.startSweeper();
    if (ownership != null) {
      ownership.start();
    }
  }

  void stop() {
    sessions.stopSweeper();
    if (ownership != null) {
      ownership.stop();
    }
  }
}
