package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.http.impl.HttpErrors.Refusal;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.CorsHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Assembles the router of one HTTP verticle: one {@code Host} required of every HTTP/1.1 request, then the health
 * routes (ahead of every other check: a probe carries none of what they look at), then on the MCP path CORS, the Host and Origin checks, authentication (before anything else
 * is read, the body included) and the authorization metadata routes, the body limit, the POST, GET and DELETE
 * handlers, 405 for any other method, and a JSON-RPC body for whatever fails.
 */
final class HttpRouter {

  private static final Logger LOG = LoggerFactory.getLogger(HttpRouter.class);

  /** The handlers of the MCP path's methods. */
  record Methods(Handler<RoutingContext> post, Handler<RoutingContext> get, Handler<RoutingContext> delete) {
  }

  private HttpRouter() {
  }

  /** @param auth the authorization gate, or null when authorization is off */
  static Router create(Vertx vertx, HttpEndpoint endpoint, AuthGate auth, ConnectionGuard connections,
      Methods methods) {
    McpHttpServerOptions options = endpoint.options;
    String path = options.getPath();
    Router web = Router.router(vertx);
    web.route().handler(HttpRouter::oneHost);
    HealthRoutes.install(web, options, endpoint.readiness.all(), endpoint.readiness::isStopping);
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
    web.route(path).failureHandler(rc -> failed(options, connections, rc));
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

  /**
   * An HTTP/1.1 request names exactly one {@code Host} (RFC 9112, 3.2). Two are malformed (and which one a proxy
   * read is anyone's guess): 400 on every path, the health routes included. A request with none never gets here:
   * the router fails it with 400 when it is taken in, answered by {@link #failed}.
   */
  private static void oneHost(RoutingContext rc) {
    HttpServerRequest request = rc.request();
    if (request.version() == HttpVersion.HTTP_1_1 && request.headers().getAll(HttpHeaders.HOST).size() > 1) {
      HttpErrors.reject(rc.response(), Refusal.BAD_REQUEST, "Bad Request: more than one Host header");
      return;
    }
    rc.next();
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

  /**
   * A route failed: the body handler's 413, the router's 400 for a request it could not take in (an HTTP/1.1
   * request without {@code Host}) or whose body's framing failed to decode, all the client's doing and logged
   * without a stack trace, or an unexpected exception (500). Either way a JSON-RPC body, when the connection can
   * still carry one.
   */
  private static void failed(McpHttpServerOptions options, ConnectionGuard connections, RoutingContext rc) {
    if (connections.isConnectionFault(rc.request(), rc.failure())) {
      // The body could not be decoded (malformed chunks): the connection is closing, its fault logged once.
      HttpErrors.reject(rc.response(), Refusal.BAD_REQUEST, "Bad Request: the body's framing is malformed");
    } else if (rc.statusCode() == Refusal.PAYLOAD_TOO_LARGE.status) {
      HttpErrors.reject(rc.response(), Refusal.PAYLOAD_TOO_LARGE,
          "Payload Too Large: the body exceeds " + options.getMaxBodyBytes() + " bytes");
    } else if (rc.statusCode() == Refusal.BAD_REQUEST.status) {
      String reason = rc.failure() == null || rc.failure().getMessage() == null ? "malformed request"
          : rc.failure().getMessage();
      HttpErrors.reject(rc.response(), Refusal.BAD_REQUEST, "Bad Request: " + reason);
    } else {
      LOG.error("Request failed", rc.failure());
      HttpErrors.reject(rc.response(), Refusal.INTERNAL, JsonRpcErrorCodes.INTERNAL_ERROR, "Internal error");
    }
  }
}
