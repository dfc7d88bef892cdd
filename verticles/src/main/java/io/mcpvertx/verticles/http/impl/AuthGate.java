package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.Principal;
import io.mcpvertx.verticles.http.auth.McpAuthOptions;
import io.mcpvertx.verticles.http.auth.impl.AuthServerUnavailableException;
import io.mcpvertx.verticles.http.auth.impl.BearerChallenge;
import io.mcpvertx.verticles.http.auth.impl.InvalidTokenException;
import io.mcpvertx.verticles.http.auth.impl.ResourceMetadata;
import io.mcpvertx.verticles.http.auth.impl.ScopePolicy;
import io.mcpvertx.verticles.http.auth.impl.TokenValidator;
import io.mcpvertx.verticles.http.impl.HttpErrors.Refusal;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The endpoint as an OAuth 2.1 protected resource: every request to it (POST, GET and DELETE alike) must carry a
 * valid bearer token, whose principal is put on the routing context for the session binding and the engines; a
 * POST's messages must also be covered by the token's scopes. Serves the protected resource metadata and, when
 * asked, the mirror of the authorization server's metadata for 2025-03-26 clients.
 *
 * <p>Rejections follow RFC 6750 and RFC 9728: 401 with a {@code Bearer} challenge naming the metadata and the
 * scope hint, 403 {@code insufficient_scope} naming the scopes for step-up, 400 {@code invalid_request} for a
 * malformed header, 503 when the authorization server cannot be asked. Tokens are never logged, stored or passed on.
 *
 * <p>Immutable and shared by the endpoint's HTTP verticles; each request continues on its own verticle's context.
 */
final class AuthGate {

  /** One line per decision: who was let in, or why a request was refused (never the token itself). */
  private static final Logger AUDIT = LoggerFactory.getLogger("io.mcpvertx.auth.audit");
  private static final Logger LOG = LoggerFactory.getLogger(AuthGate.class);
  private static final String PRINCIPAL = "mcp.principal";
  /** RFC 6750 b64token. */
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9\\-._~+/]+=*");

  private final TokenValidator validator;
  private final McpServer server;
  private final ScopePolicy scopes;
  private final ResourceMetadata metadata;
  private final JsonObject authorizationServerMetadata;

  private AuthGate(McpAuthOptions options, TokenValidator validator, McpServer server) {
    this.validator = validator;
    this.server = server;
    this.scopes = new ScopePolicy(options);
    this.metadata = new ResourceMetadata(options, scopes.supported());
    this.authorizationServerMetadata = options.isServeAuthorizationServerMetadata()
        ? validator.authorizationServerMetadata() : null;
  }

  /** Discovers the authorization server and loads its keys; fails when they cannot be had (fail closed). */
  static Future<AuthGate> start(Vertx vertx, McpAuthOptions options, McpServer server) {
    return TokenValidator.start(vertx, options).map(validator -> new AuthGate(options, validator, server));
  }

  /** Tells the server's observer, if any, that a request was refused for {@code reason}. */
  private void rejected(String reason) {
    server.observer().ifPresent(observer -> observer.authRejected(reason));
  }

  void close() {
    validator.close();
  }

  /** The authenticated caller of a request; null when authorization is off. */
  static Principal principal(RoutingContext rc) {
    return rc.get(PRINCIPAL);
  }

  /** Adds the well-known metadata routes, each behind {@code guard} (Host and Origin checks, CORS). */
  void installMetadataRoutes(Router web, List<Handler<RoutingContext>> guard) {
    serve(web, metadata.path(), guard, metadata.document());
    if (!metadata.path().equals(ResourceMetadata.WELL_KNOWN)) {
      serve(web, ResourceMetadata.WELL_KNOWN, guard, metadata.document());
    }
    if (authorizationServerMetadata != null) {
      serve(web, ResourceMetadata.AUTHORIZATION_SERVER_WELL_KNOWN, guard, authorizationServerMetadata);
    }
  }

  private static void serve(Router web, String path, List<Handler<RoutingContext>> guard, JsonObject document) {
    var route = web.get(path);
    guard.forEach(route::handler);
    route.handler(rc -> rc.response().putHeader(HttpHeaders.CONTENT_TYPE, McpHeaders.APPLICATION_JSON)
        .end(document.toBuffer()));
  }

  /** Route handler: authenticates the request, then lets it through with its principal, or answers it. */
  void authenticate(RoutingContext rc) {
    HttpServerRequest request = rc.request();
    List<String> authorization = request.headers().getAll("Authorization");
    if (authorization.isEmpty()) {
      unauthorized(rc, null);
      return;
    }
    if (authorization.size() > 1) {
      invalidRequest(rc, "more than one Authorization header");
      return;
    }
    String value = authorization.get(0).trim();
    int space = value.indexOf(' ');
    if (space < 0 || !value.substring(0, space).toLowerCase(Locale.ROOT).equals("bearer")) {
      // Another scheme carries no bearer credentials: the plain challenge, as for no header at all.
      unauthorized(rc, null);
      return;
    }
    String token = value.substring(space + 1).trim();
    if (!TOKEN.matcher(token).matches()) {
      invalidRequest(rc, "the bearer token is malformed");
      return;
    }
    Context context = Vertx.currentContext();
    if (!request.isEnded()) {
      request.pause();
    }
    validator.validate(token).onComplete(ar -> onContext(context, () -> {
      if (!request.isEnded()) {
        request.resume();
      }
      if (ar.succeeded()) {
        admit(rc, ar.result());
      } else if (ar.cause() instanceof InvalidTokenException refused) {
        LOG.atInfo().log(() -> "Refused a bearer token from " + request.remoteAddress() + ": "
            + refused.getMessage());
        unauthorized(rc, refused);
      } else if (ar.cause() instanceof AuthServerUnavailableException) {
        rc.response().putHeader("Retry-After", "5");
        rejected("auth_server_unavailable");
        HttpErrors.reject(rc.response(), Refusal.UNAVAILABLE, "Service Unavailable: " + ar.cause().getMessage());
      } else {
        LOG.error("Token validation failed", ar.cause());
        HttpErrors.reject(rc.response(), Refusal.INTERNAL, "Internal error");
      }
    }));
  }

  private void admit(RoutingContext rc, Principal principal) {
    Set<String> required = scopes.base();
    List<String> missing = ScopePolicy.missing(principal, required);
    if (!missing.isEmpty()) {
      insufficientScope(rc.response(), principal, required, missing, null);
      return;
    }
    AUDIT.atInfo().log(() -> "auth accepted subject=" + principal.subject() + " issuer=" + principal.issuer()
        + " remote=" + rc.request().remoteAddress());
    rc.put(PRINCIPAL, principal);
    rc.next();
  }

  /**
   * Whether the caller's scopes cover what the POST body's messages need (per method, and per tool for
   * {@code tools/call}); false after answering 403.
   */
  boolean permits(RoutingContext rc, Decoded decoded) {
    Principal principal = principal(rc);
    if (principal == null) {
      return true;
    }
    Set<String> required = scopes.required(decoded);
    List<String> missing = ScopePolicy.missing(principal, required);
    if (missing.isEmpty()) {
      return true;
    }
    JsonRpcId id = decoded instanceof Decoded.Message m && m.message() instanceof JsonRpcRequest r ? r.id() : null;
    insufficientScope(rc.response(), principal, required, missing, id);
    return false;
  }

  private void insufficientScope(HttpServerResponse response, Principal principal, Set<String> required,
      List<String> missing, JsonRpcId id) {
    String description = "the request needs scope " + String.join(" ", missing);
    rejected("insufficient_scope");
    LOG.atInfo().log(() -> "Refused " + principal.key() + ": " + description);
    AUDIT.atInfo().log(() -> "auth refused reason=insufficient_scope subject=" + principal.subject()
        + " missing=" + String.join(",", missing));
    response.putHeader(McpHeaders.WWW_AUTHENTICATE,
        BearerChallenge.insufficientScope(metadata.url(), scopes.stepUp(principal, required), description));
    HttpErrors.reject(response, Refusal.FORBIDDEN, id, new JsonRpcError(HttpErrors.TRANSPORT_ERROR,
        "Forbidden: insufficient scope: " + description));
  }

  private void unauthorized(RoutingContext rc, InvalidTokenException refused) {
    rejected(refused == null ? "missing_token" : "invalid_token");
    AUDIT.atInfo().log(() -> "auth refused reason=" + (refused == null ? "missing_token" : "invalid_token")
        + " remote=" + rc.request().remoteAddress());
    HttpServerResponse response = rc.response();
    response.putHeader(McpHeaders.WWW_AUTHENTICATE, BearerChallenge.unauthorized(metadata.url(), scopes.base(), refused));
    HttpErrors.reject(response, Refusal.UNAUTHORIZED, refused == null ? "Unauthorized: a bearer token is required"
        : "Unauthorized: " + refused.getMessage());
  }

  private void invalidRequest(RoutingContext rc, String description) {
    rejected("invalid_request");
    AUDIT.atInfo().log(() -> "auth refused reason=invalid_request remote=" + rc.request().remoteAddress()
        + " detail=" + description);
    InvalidTokenException problem = new InvalidTokenException(InvalidTokenException.INVALID_REQUEST, description);
    rc.response().putHeader(McpHeaders.WWW_AUTHENTICATE, BearerChallenge.unauthorized(metadata.url(), scopes.base(), problem));
    HttpErrors.reject(rc.response(), Refusal.BAD_REQUEST, "Bad Request: " + description);
  }

  /** Runs on the request's context: the library may complete elsewhere (its own context, an HTTP client's). */
  private static void onContext(Context context, Runnable action) {
    if (context == null || Vertx.currentContext() == context) {
      action.run();
    } else {
      context.runOnContext(v -> action.run());
    }
  }
}
