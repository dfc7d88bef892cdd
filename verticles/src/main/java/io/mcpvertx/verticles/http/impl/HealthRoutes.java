package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.http.impl.HttpErrors.Refusal;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The liveness and readiness endpoints. They are routed ahead of the MCP path's Host, Origin and auth checks (a
 * probe carries none of what they look at) and answer {@code GET} only.
 *
 * <p>Liveness answers at once. Readiness runs every check at once, each bounded by the health check timeout, and
 * never blocks: a store that does not answer makes its check fail when the timeout fires.
 */
final class HealthRoutes {

  private static final String UP = "UP";
  private static final String DOWN = "DOWN";

  private final Map<String, Supplier<Future<Void>>> checks;
  private final BooleanSupplier stopping;
  private final long timeoutMs;

  private HealthRoutes(Map<String, Supplier<Future<Void>>> checks, BooleanSupplier stopping, long timeoutMs) {
    this.checks = checks;
    this.stopping = stopping;
    this.timeoutMs = timeoutMs;
  }

  /**
   * Routes the paths the options name (those not turned off) to {@code checks}, in the order given; once
   * {@code stopping}, readiness fails at once, so a load balancer stops sending requests here.
   */
  static void install(Router web, McpHttpServerOptions options, Map<String, Supplier<Future<Void>>> checks,
      BooleanSupplier stopping) {
    HealthRoutes health = new HealthRoutes(checks, stopping, options.getHealthCheckTimeoutMs());
    if (options.getHealthLivePath() != null) {
      route(web, options.getHealthLivePath(), rc -> answer(rc.response(), 200, new JsonObject().put("status", UP)));
    }
    if (options.getHealthReadyPath() != null) {
      route(web, options.getHealthReadyPath(), health::ready);
    }
  }

  private static void route(Router web, String path, Handler<RoutingContext> handler) {
    web.get(path).handler(handler);
    web.route(path).handler(rc -> {
      rc.response().putHeader("Allow", "GET");
      HttpErrors.reject(rc.response(), Refusal.METHOD_NOT_ALLOWED, "Method not allowed");
    });
  }

  private void ready(RoutingContext rc) {
    if (stopping.getAsBoolean()) {
      answer(rc.response(), 503, new JsonObject().put("status", DOWN)
          .put("checks", new JsonObject().put("shutdown", DOWN + ": the server is shutting down")));
      return;
    }
    List<String> names = new ArrayList<>(checks.keySet());
    List<Future<Void>> results = new ArrayList<>();
    for (String name : names) {
      results.add(run(checks.get(name)));
    }
    Future.join(results).onComplete(ignored -> {
      JsonObject report = new JsonObject();
      boolean up = true;
      for (int i = 0; i < names.size(); i++) {
        Future<Void> result = results.get(i);
        if (result.succeeded()) {
          report.put(names.get(i), UP);
        } else {
          up = false;
          report.put(names.get(i), DOWN + ": " + reason(result.cause()));
        }
      }
      answer(rc.response(), up ? 200 : 503, new JsonObject().put("status", up ? UP : DOWN).put("checks", report));
    });
  }

  private Future<Void> run(Supplier<Future<Void>> check) {
    Future<Void> result;
    try {
      result = check.get();
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    return result == null ? Future.succeededFuture() : result.timeout(timeoutMs, TimeUnit.MILLISECONDS);
  }

  private String reason(Throwable failure) {
    if (failure instanceof TimeoutException) {
      return "no answer within " + timeoutMs + " ms";
    }
    String message = failure.getMessage();
    return message == null ? failure.getClass().getSimpleName() : message;
  }

  private static void answer(HttpServerResponse response, int status, JsonObject body) {
    if (response.ended() || response.closed()) {
      return;
    }
    response.setStatusCode(status)
        .putHeader(HttpHeaders.CONTENT_TYPE, McpHeaders.APPLICATION_JSON)
        .putHeader("Cache-Control", "no-store")
        .end(body.toBuffer());
  }
}
