package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.verticles.http.McpHttpServer;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Deploys the HTTP verticles of one endpoint and owns what they share: the {@link HttpEndpoint}, and the
 * authorization gate, started before the first verticle and closed with the endpoint.
 */
public final class McpHttpServerImpl implements McpHttpServer {

  /**
   * Vert.x shares a listening socket between servers that ask for the same port, but port 0 is not shared: each
   * server binding 0 gets a port of its own, and a second server asking for the port the first one got fails with
   * "Address already in use". A negative port is Vert.x's shared random port: servers asking for the same negative
   * number share one random port. Each endpoint configured with port 0 gets a negative number of its own.
   */
  private static final AtomicInteger RANDOM_PORT_KEYS = new AtomicInteger();

  private final Vertx vertx;
  private final HttpEndpoint endpoint;
  private final List<String> deployments = new ArrayList<>();
  private final List<McpHttpVerticle> verticles = new CopyOnWriteArrayList<>();
  private volatile int actualPort = -1;
  /** Started before the first verticle is deployed when authorization is on; null otherwise. */
  private volatile AuthGate auth;

  public McpHttpServerImpl(Vertx vertx, McpServer server, McpHttpServerOptions options) {
    this.vertx = vertx;
    this.endpoint = new HttpEndpoint(vertx, server, new McpHttpServerOptions(options), server.stores());
  }

  @Override
  public Future<McpHttpServer> listen(int instances) {
    if (instances < 1) {
      return Future.failedFuture(new IllegalArgumentException("instances must be positive"));
    }
    int port = endpoint.options.getPort();
    if (port == 0 && instances > 1) {
      // Vert.x gives each server on port 0 a port of its own, and shares a random port only between servers on
      // the same negative port. The key is unique to this endpoint, so two endpoints never share a port.
      port = -1 - Math.floorMod(RANDOM_PORT_KEYS.getAndIncrement(), Integer.MAX_VALUE);
    }
    int bind = port;
    Future<Void> started = startAuth().compose(v -> {
      McpHttpVerticle first = new McpHttpVerticle(endpoint, auth, bind);
      verticles.add(first);
      return vertx.deployVerticle(first).map(id -> {
        deployments.add(id);
        actualPort = first.actualPort();
        vertx.runOnContext(x -> endpoint.start());
        return null;
      });
    });
    for (int i = 1; i < instances; i++) {
      started = started.compose(v -> {
        McpHttpVerticle next = new McpHttpVerticle(endpoint, auth, bind);
        verticles.add(next);
        return vertx.deployVerticle(next).map(id -> {
          deployments.add(id);
          return null;
        });
      });
    }
    return started.map(v -> this);
  }

  /**
   * Readies authorization when it is on: discovery and keys, before anything is served. Fails, and nothing is
   * served, when the authorization server cannot be reached or configured.
   */
  private Future<Void> startAuth() {
    if (!endpoint.options.getAuth().isEnabled() || auth != null) {
      return Future.succeededFuture();
    }
    return AuthGate.start(vertx, endpoint.options.getAuth(), endpoint.server).map(gate -> {
      auth = gate;
      return null;
    });
  }

  @Override
  public int actualPort() {
    return actualPort;
  }

  @Override
  public int sessionCount() {
    return endpoint.sessions.count();
  }

  @Override
  public McpHttpServer addReadinessCheck(String name, Supplier<Future<Void>> check) {
    if (!deployments.isEmpty()) {
      throw new IllegalStateException("add readiness checks before listening");
    }
    endpoint.readiness.add(name, check);
    return this;
  }

  /**
   * In order: not ready any more; no new connections or requests, resumable streams handed to other instances
   * (their requests run on here), the other requests in flight answered; each session handed over once it serves
   * no request (its next request restores it elsewhere, so new tasks start there); the task handlers still running
   * here given the rest of {@code timeoutMs} (on their sessions' contexts, which outlive the handover); then
   * {@link #close()}.
   */
  @Override
  public Future<Void> shutdown(long timeoutMs) {
    long deadline = System.currentTimeMillis() + Math.max(0, timeoutMs);
    endpoint.readiness.stopping();
    List<McpHttpVerticle> all = new ArrayList<>(verticles);
    return stopListening(all, Math.max(0, timeoutMs))
        .transform(ar -> Future.join(all.stream().map(McpHttpVerticle::drain).toList()))
        .transform(ar -> endpoint.sessions.handOverLocal(Math.max(0, deadline - System.currentTimeMillis())))
        .transform(ar -> endpoint.server.drainTasks(Math.max(0, deadline - System.currentTimeMillis())))
        .transform(ar -> close());
  }

  /**
   * Closes the listening socket before anything else happens on the event loops. A connection taken and then
   * dropped reaches a load balancer as a 502, and it may not send a POST again elsewhere. Vert.x closes a socket
   * shared by several servers when the last of them leaves, from the context it was bound on (the first
   * verticle's), and a connection accepted between that server leaving and the close has no server to go to and
   * is reset. So the first verticle leaves last, from its own context, and the streams' handovers wait until the
   * socket is closed; the others leave from that context too, so their connections are told to close from
   * another event loop than theirs, after what has arrived on them is read. This narrows those windows without
   * closing them: Vert.x still accepts between the last server leaving and the close, and its shutdown still
   * closes a connection whose request it has not read yet (docs/cluster.md has the counts).
   */
  private static Future<Void> stopListening(List<McpHttpVerticle> all, long timeoutMs) {
    if (all.isEmpty()) {
      return Future.succeededFuture();
    }
    McpHttpVerticle bound = all.get(0);
    Promise<Void> left = Promise.promise();
    bound.runOnContext(() -> {
      for (McpHttpVerticle verticle : all.subList(1, all.size())) {
        verticle.stopListening(timeoutMs);
      }
      bound.stopListening(timeoutMs);
      left.complete();
    });
    return left.future();
  }

  @Override
  public Future<Void> close() {
    verticles.clear();
    endpoint.stop();
    AuthGate gate = auth;
    if (gate != null) {
      gate.close();
    }
    List<Future<Void>> undeploys = new ArrayList<>();
    for (String id : deployments) {
      undeploys.add(vertx.undeploy(id));
    }
    deployments.clear();
    return Future.join(undeploys).map(v -> {
      endpoint.sessions.closeAll();
      return null;
    });
  }
}
