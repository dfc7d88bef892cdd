package io.mcpvertx.verticles.http.auth.impl;

import io.mcpvertx.server.Principal;
import io.mcpvertx.verticles.http.auth.AuthMode;
import io.mcpvertx.verticles.http.auth.McpAuthOptions;
import io.vertx.core.Closeable;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.NoSuchKeyIdException;
import io.vertx.ext.auth.authentication.TokenCredentials;
import io.vertx.ext.auth.oauth2.OAuth2Auth;
import io.vertx.ext.auth.oauth2.OAuth2Options;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Turns a bearer token into a {@link Principal}, or refuses it, with vertx-auth-oauth2 doing the cryptography and
 * the calls to the authorization server and {@link TokenClaims} doing what the library does not.
 *
 * <p>The provider is built once, at start-up, after discovery; in {@link AuthMode#JWT} the JWKS is loaded before
 * the first request, fetched again on an unknown key id (rate-limited, see {@link JwksRefresh}) and every
 * {@link McpAuthOptions#getJwksMaxAgeSeconds()}. The provider gets no userinfo or introspection endpoint in JWT mode,
 * so a token that fails local verification is refused instead of being sent anywhere. Thread-safe; completes its
 * futures on whatever thread the library does, so callers move back to their own context.
 */
public final class TokenValidator {

  private static final Logger LOG = LoggerFactory.getLogger(TokenValidator.class);
  private static final String JWT_CLAIMS = "accessToken";

  private final McpAuthOptions options;
  private final OAuth2Auth provider;
  private final TokenClaims claims;
  private final Set<String> algorithms;
  private final JwksRefresh refresh;
  private final JsonObject authorizationServerMetadata;

  private TokenValidator(McpAuthOptions options, OAuth2Auth provider, JsonObject authorizationServerMetadata) {
    this.options = options;
    this.provider = provider;
    this.claims = new TokenClaims(options.getIssuer(), options.getResource(), options.getClockSkewSeconds());
    this.algorithms = Set.copyOf(options.getAlgorithms());
    this.refresh = new JwksRefresh(provider, options.getJwksRefreshMinIntervalMs(), options.getHttpTimeoutMs(),
        () -> System.nanoTime() / 1_000_000);
    this.authorizationServerMetadata = authorizationServerMetadata;
  }

  /** Discovers what is not configured, builds the provider and (JWT) loads the keys. Fails if any step does. */
  public static Future<TokenValidator> start(Vertx vertx, McpAuthOptions options) {
    try {
      options.validate();
    } catch (IllegalStateException e) {
      return Future.failedFuture(e);
    }
    if (!options.isEnabled()) {
      return Future.failedFuture(new IllegalStateException("auth is off"));
    }
    boolean jwt = options.getMode() == AuthMode.JWT;
    boolean discover = options.getDiscoveryUrl() != null || options.isServeAuthorizationServerMetadata()
        || (jwt ? options.getJwksUrl() == null : options.getIntrospectionUrl() == null);
    Future<JsonObject> metadata = discover
        ? AuthServerDiscovery.discover(vertx, options.getIssuer(), options.getDiscoveryUrl(), options.getHttpTimeoutMs())
        : Future.succeededFuture();
    return metadata.compose(document -> {
      String endpoint = jwt ? configuredOr(options.getJwksUrl(), document, "jwks_uri")
          : configuredOr(options.getIntrospectionUrl(), document, "introspection_endpoint");
      if (endpoint == null) {
        return Future.failedFuture(new IllegalStateException("auth: the authorization server metadata has no "
            + (jwt ? "jwks_uri" : "introspection_endpoint") + " and none is configured"));
      }
      new McpAuthOptions(options).setJwksUrl(endpoint).setIntrospectionUrl(endpoint).validate();
      OAuth2Auth provider = OAuth2Auth.create(vertx, providerOptions(options, endpoint));
      TokenValidator validator = new TokenValidator(options, provider, document);
      Future<Void> keys = jwt ? provider.jWKSet().timeout(options.getHttpTimeoutMs(), TimeUnit.MILLISECONDS)
          : Future.succeededFuture();
      return keys.map(validator).onFailure(e -> validator.close());
    });
  }

  private static String configuredOr(String configured, JsonObject document, String member) {
    if (configured != null) {
      return configured;
    }
    return document != null && document.getValue(member) instanceof String url ? url : null;
  }

  private static OAuth2Options providerOptions(McpAuthOptions options, String endpoint) {
    int timeout = (int) Math.min(Integer.MAX_VALUE, options.getHttpTimeoutMs());
    OAuth2Options provider = new OAuth2Options()
        .setSupportedGrantTypes(List.of("client_credentials"))
        .setClientId(options.getClientId())
        .setClientSecret(options.getClientSecret())
        .setJWTOptions(new JWTOptions()
            .setIssuer(options.getIssuer())
            .setAudience(List.of(options.getResource()))
            .setLeeway(options.getClockSkewSeconds()))
        .setHttpClientOptions(new HttpClientOptions().setConnectTimeout(timeout)
            .setIdleTimeout(Math.max(1, timeout / 1000)).setIdleTimeoutUnit(TimeUnit.SECONDS));
    if (options.getMode() == AuthMode.JWT) {
      provider.setJwkPath(endpoint);
      provider.setJwkMaxAgeInSeconds(options.getJwksMaxAgeSeconds() > 0 ? options.getJwksMaxAgeSeconds() : -1);
    } else {
      provider.setIntrospectionPath(endpoint);
    }
    return provider;
  }

  /** The discovered authorization-server metadata, or null when nothing was discovered. */
  public JsonObject authorizationServerMetadata() {
    return authorizationServerMetadata == null ? null : authorizationServerMetadata.copy();
  }

  /**
   * The principal a token stands for. Fails with {@link InvalidTokenException} for a token that must not be
   * accepted, and {@link AuthServerUnavailableException} when the authorization server could not be asked.
   */
  public Future<Principal> validate(String token) {
    if (options.getMode() == AuthMode.JWT) {
      try {
        checkShape(token);
      } catch (InvalidTokenException e) {
        return Future.failedFuture(e);
      }
      return verifyJwt(token, true);
    }
    return introspect(token);
  }

  /**
   * Before the library sees it, a JWT must be signed (three parts, a signature) with an allowed asymmetric
   * algorithm and no critical header the library would ignore. This also keeps {@code alg: none} out if the key
   * set were ever empty, when the library would accept unsigned tokens.
   */
  void checkShape(String token) {
    String[] parts = token.split("\\.", -1);
    if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty() || parts[2].isEmpty()) {
      throw InvalidTokenException.invalidToken("the token is not a signed JWT");
    }
    JsonObject header = decodePart(parts[0]);
    if (header == null) {
      throw InvalidTokenException.invalidToken("the token's header is not JSON");
    }
    Object alg = header.getValue("alg");
    if (!(alg instanceof String name) || !algorithms.contains(name)) {
      throw InvalidTokenException.invalidToken("the token's signing algorithm " + alg + " is not accepted");
    }
    if (header.containsKey("crit")) {
      throw InvalidTokenException.invalidToken("the token has critical header parameters");
    }
  }

  private Future<Principal> verifyJwt(String token, boolean mayRefreshKeys) {
    return provider.authenticate(new TokenCredentials(token)).transform(ar -> {
      if (ar.succeeded()) {
        JsonObject verified = ar.result().attributes().getJsonObject(JWT_CLAIMS);
        if (verified == null) {
          return Future.failedFuture(InvalidTokenException.invalidToken("the token could not be verified"));
        }
        return checked(() -> claims.ofJwt(verified, nowSeconds()));
      }
      if (ar.cause() instanceof NoSuchKeyIdException && mayRefreshKeys) {
        return refresh.refresh().compose(refreshed -> refreshed ? verifyJwt(token, false)
            : Future.failedFuture(InvalidTokenException.invalidToken("the token is signed with an unknown key")));
      }
      if (ar.cause() instanceof NoSuchKeyIdException) {
        return Future.failedFuture(InvalidTokenException.invalidToken("the token is signed with an unknown key"));
      }
      return Future.failedFuture(InvalidTokenException.invalidToken(whyRefused(token)));
    });
  }

  /**
   * Why the library refused a well-formed JWT (it only says it could not authenticate it): read from the
   * unverified claims for the client's sake, nothing is granted on them.
   */
  private String whyRefused(String token) {
    JsonObject unverified = decodePart(token.split("\\.", -1)[1]);
    if (unverified != null) {
      try {
        claims.ofJwt(unverified, nowSeconds());
      } catch (InvalidTokenException e) {
        return e.getMessage();
      }
    }
    return "the token's signature could not be verified";
  }

  private Future<Principal> introspect(String token) {
    Promise<Principal> result = Promise.promise();
    provider.authenticate(new TokenCredentials(token))
        .timeout(options.getHttpTimeoutMs(), TimeUnit.MILLISECONDS)
        .onComplete(ar -> {
          if (ar.succeeded()) {
            result.handle(checked(() -> claims.ofIntrospection(ar.result().principal(), nowSeconds())));
            return;
          }
          Throwable cause = ar.cause();
          String message = String.valueOf(cause.getMessage());
          if (message.equals("Inactive Token")) {
            result.fail(InvalidTokenException.invalidToken("the token is not active"));
          } else if (message.equals("User token is expired.")) {
            result.fail(InvalidTokenException.invalidToken("the token expired"));
          } else {
            LOG.warn("Token introspection failed: " + describe(cause));
            result.fail(new AuthServerUnavailableException("the authorization server could not introspect the token"));
          }
        });
    return result.future();
  }

  private static String describe(Throwable cause) {
    String kind = cause instanceof TimeoutException ? "timed out"
        : cause instanceof IOException ? "connection failed" : "refused";
    return kind + ": " + cause.getMessage();
  }

  private interface Check {
    Principal run();
  }

  private static Future<Principal> checked(Check check) {
    try {
      return Future.succeededFuture(check.run());
    } catch (InvalidTokenException e) {
      return Future.failedFuture(e);
    }
  }

  private static JsonObject decodePart(String part) {
    try {
      return Buffer.buffer(Base64.getUrlDecoder().decode(part)).toJsonObject();
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static long nowSeconds() {
    return System.currentTimeMillis() / 1000;
  }

  /** Stops the periodic JWKS refresh. */
  public void close() {
    if (provider instanceof Closeable closeable) {
      closeable.close(Promise.promise());
    }
  }
}
