package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.http.impl.HttpErrors.Refusal;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.CorsHandler;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Assembles the router of one HTTP verticle: the health routes first (ahead of every check: a probe carries none of
 * what they look at), then on the MCP path CORS, the Host and Origin checks, authentication (before anything else
 * is read, the body included) and the authorization metadata routes, the body limit, the POST, GET and DELETE
 * handlers, 405 for any other method, and a JSON-RPC body for whatever fails.
 */
final class HttpRouter {

  private static final Logger LOG = System.getLogger(HttpRouter.class.getName());

  /** The handlers of the MCP path's methods. */
  record Methods(Handler<RoutingContext> post, Handler<RoutingContext> get, Handler<RoutingContext> delete) {
  }

  private HttpRouter() {
  }

  /** @param auth the authorization gate, or null when authorization is off */
  static Router create(Vertx vertx, HttpEndpoint endpoint, AuthGate auth, Methods methods) {
    McpHttpServerOptions options = endpoint.options;
    String path = options.getPath();
    Router web = Router.router(vertx);
    HealthRoutes.install(web, options, endpoint.readiness.all());
    List<Handler<RoutingContext>> front = new ArrayList<>();
    if (options.isCors()) {
      front.add(cors(options));
    }
    front.add(rc -> guard(endpoint.guard, rc));
    front.forEach(handler -> web.route(path).handler(handler));
    if (auth != null) {
      web.route(path).handler(auth::authenticate);
      auth.installMetadataRoutes(web, front);
    }
    web.post(path).handler(BodyHandler.create(false).setBodyLimit(options.getMaxBodyBytes())).handler(methods.post());
    web.get(path).handler(methods.get());
    web.delete(path).handler(methods.delete());
    web.route(path).handler(rc -> {
      rc.response().putHeader("Allow", "GET, POST, DELETE");
      HttpErrors.reject(rc.response(), Refusal.METHOD_NOT_ALLOWED, "Method not allowed");
    });
    web.route(path).failureHandler(rc -> failed(options, rc));
    return web;
  }

  private static CorsHandler cors(McpHttpServerOptions options) {
    CorsHandler cors = CorsHandler.create();
    if (options.getAllowedOrigins().isEmpty()) {
      cors.addOriginWithRegex("^https?://(localhost|127(\\.[0-9]+){3}|\\[::1])(:[0-9]+)?$");
    } else {
      cors.addOrigins(options.getAllowedOrigins());
    }
    return cors
        .allowedMethods(Set.of(HttpMethod.GET, HttpMethod.POST, HttpMethod.DELETE, HttpMethod.OPTIONS))
        .allowedHeaders(McpHeaders.CORS_ALLOWED)
        .exposedHeaders(McpHeaders.CORS_EXPOSED);
  }

  /** The checks every method passes: Host, then Origin. */
  private static void guard(RequestGuard guard, RoutingContext rc) {
    HttpServerRequest request = rc.request();
    String problem = guard.checkHost(request);
    if (problem == null) {
      problem = guard.checkOrigin(request);
    }
    if (problem != null) {
      HttpErrors.reject(rc.response(), Refusal.FORBIDDEN, "Forbidden: " + problem);
      return;
    }
    rc.next();
  }

  /** A route failed: the body handler's 413, or an unexpected exception (500). Either way a JSON-RPC body. */
  private static void failed(McpHttpServerOptions options, RoutingContext rc) {
    if (rc.statusCode() == Refusal.PAYLOAD_TOO_LARGE.status) {
      HttpErrors.reject(rc.response(), Refusal.PAYLOAD_TOO_LARGE,
          "Payload Too Large: the body exceeds " + options.getMaxBodyBytes() + " bytes");
    } else {
      LOG.log(Level.ERROR, "Request failed", rc.failure());
      HttpErrors.reject(rc.response(), Refusal.INTERNAL, JsonRpcErrorCodes.INTERNAL_ERROR, "Internal error");
    }
  }
}
