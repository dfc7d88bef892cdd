package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.verticles.http.McpHttpServer;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/** Deploys the HTTP verticles of one endpoint and owns their shared state. */
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
    McpHttpVerticle first = new McpHttpVerticle(endpoint, bind);
    verticles.add(first);
    Future<Void> started = endpoint.startAuth().compose(v -> vertx.deployVerticle(first)).map(id -> {
      deployments.add(id);
      actualPort = first.actualPort();
      vertx.runOnContext(v -> endpoint.startSweeper());
      return null;
    });
    for (int i = 1; i < instances; i++) {
      McpHttpVerticle next = new McpHttpVerticle(endpoint, bind);
      verticles.add(next);
      started = started.compose(v -> vertx.deployVerticle(next)
          .map(id -> {
            deployments.add(id);
            return null;
          }));
    }
    return started.map(v -> this);
  }

  @Override
  public int actualPort() {
    return actualPort;
  }

  @Override
  public int sessionCount() {
    return endpoint.sessionCount();
  }

  @Override
  public McpHttpServer addReadinessCheck(String name, Supplier<Future<Void>> check) {
    if (!deployments.isEmpty()) {
      throw new IllegalStateException("add readiness checks before listening");
    }
    endpoint.readiness.put(Objects.requireNonNull(name, "name"),
        Objects.requireNonNull(check, "check"));
    return this;
  }

  @Override
  public Future<Void> shutdown(long timeoutMs) {
    List<Future<Void>> drained = new ArrayList<>();
    for (McpHttpVerticle verticle : verticles) {
      drained.add(verticle.drain(Math.max(0, timeoutMs)));
    }
    return Future.join(drained).transform(ar -> close());
  }

  @Override
  public Future<Void> close() {
    verticles.clear();
    endpoint.stopSweeper();
    endpoint.stopAuth();
    List<Future<Void>> undeploys = new ArrayList<>();
    for (String id : deployments) {
      undeploys.add(vertx.undeploy(id));
    }
    deployments.clear();
    return Future.join(undeploys).compose(v -> endpoint.closeAll());
  }
}
