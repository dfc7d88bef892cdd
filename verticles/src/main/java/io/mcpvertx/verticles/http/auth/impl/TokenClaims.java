package io.mcpvertx.verticles.http.auth.impl;

import io.mcpvertx.server.Principal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The checks vertx-auth-oauth2 leaves to us, on the claims of a verified JWT or on an introspection response, and
 * the {@link Principal} they yield. The library checks the audience only when a token has one and accepts tokens
 * without {@code exp}; here the audience must name this resource, the issuer must match, {@code exp} and
 * {@code sub} must be present. Pure functions of their inputs.
 */
public final class TokenClaims {

  private final String issuer;
  private final String resource;
  private final int skewSeconds;

  public TokenClaims(String issuer, String resource, int skewSeconds) {
    this.issuer = issuer;
    this.resource = canonical(resource);
    this.skewSeconds = skewSeconds;
  }

  /** The principal of a JWT whose signature was verified; fails with {@link InvalidTokenException}. */
  public Principal ofJwt(JsonObject claims, long nowSeconds) {
    if (!issuer.equals(stringClaim(claims, "iss"))) {
      throw InvalidTokenException.invalidToken("the token was issued by another authorization server");
    }
    checkAudience(claims);
    Long exp = numericClaim(claims, "exp");
    if (exp == null) {
      throw InvalidTokenException.invalidToken("the token has no expiry");
    }
    checkTimes(claims, nowSeconds);
    return principal(claims);
  }

  /** The principal of an RFC 7662 introspection response; fails with {@link InvalidTokenException}. */
  public Principal ofIntrospection(JsonObject response, long nowSeconds) {
    if (!Boolean.TRUE.equals(response.getValue("active"))) {
      throw InvalidTokenException.invalidToken("the token is not active");
    }
    Object iss = response.getValue("iss");
    if (iss != null && !issuer.equals(iss)) {
      throw InvalidTokenException.invalidToken("the token was issued by another authorization server");
    }
    checkAudience(response);
    checkTimes(response, nowSeconds);
    return principal(response);
  }

  private void checkAudience(JsonObject claims) {
    Object aud = claims.getValue("aud");
    Set<String> audiences = new LinkedHashSet<>();
    if (aud instanceof String single) {
      audiences.add(single);
    } else if (aud instanceof JsonArray many) {
      many.forEach(a -> {
        if (a instanceof String s) {
          audiences.add(s);
        }
      });
    }
    if (audiences.isEmpty()) {
      throw InvalidTokenException.invalidToken("the token names no audience; it must name " + resource);
    }
    for (String audience : audiences) {
      if (resource.equals(canonical(audience))) {
        return;
      }
    }
    throw InvalidTokenException.invalidToken("the token was issued for another resource; it must name " + resource);
  }

  private void checkTimes(JsonObject claims, long now) {
    Long exp = numericClaim(claims, "exp");
    if (exp != null && now - skewSeconds >= exp) {
      throw InvalidTokenException.invalidToken("the token expired");
    }
    Long nbf = numericClaim(claims, "nbf");
    if (nbf != null && nbf > now + skewSeconds) {
      throw InvalidTokenException.invalidToken("the token is not valid yet");
    }
    Long iat = numericClaim(claims, "iat");
    if (iat != null && iat > now + skewSeconds) {
      throw InvalidTokenException.invalidToken("the token was issued in the future");
    }
  }

  private Principal principal(JsonObject claims) {
    String subject = stringClaim(claims, "sub");
    if (subject == null || subject.isEmpty()) {
      throw InvalidTokenException.invalidToken("the token names no subject");
    }
    return new Principal(issuer, subject, scopes(claims));
  }

  /** Scopes from {@code scope} (space-delimited, RFC 9068 and 7662) or {@code scp} (a list or a string). */
  static Set<String> scopes(JsonObject claims) {
    Set<String> scopes = new LinkedHashSet<>();
    for (String key : new String[] {"scope", "scp"}) {
      Object value = claims.getValue(key);
      if (value instanceof String s) {
        for (String scope : s.trim().split("\\s+")) {
          if (!scope.isEmpty()) {
            scopes.add(scope);
          }
        }
      } else if (value instanceof JsonArray list) {
        list.forEach(scope -> {
          if (scope instanceof String s && !s.isEmpty()) {
            scopes.add(s);
          }
        });
      }
    }
    return scopes;
  }

  private static String stringClaim(JsonObject claims, String key) {
    return claims.getValue(key) instanceof String s ? s : null;
  }

  private static Long numericClaim(JsonObject claims, String key) {
    Object value = claims.getValue(key);
    if (value == null) {
      return null;
    }
    if (value instanceof Number n) {
      return n.longValue();
    }
    throw InvalidTokenException.invalidToken("the token's " + key + " is not a number");
  }

  /**
   * A resource URI compared the way RFC 8707 and the MCP specification ask: scheme and host are case-insensitive,
   * and an empty path is the same as "/". Anything else must match exactly.
   */
  static String canonical(String uri) {
    try {
      URI parsed = new URI(uri);
      if (parsed.getScheme() == null || parsed.getRawAuthority() == null) {
        return uri;
      }
      String path = parsed.getRawPath() == null || parsed.getRawPath().isEmpty() ? "/" : parsed.getRawPath();
      String query = parsed.getRawQuery() == null ? "" : "?" + parsed.getRawQuery();
      return parsed.getScheme().toLowerCase(Locale.ROOT) + "://" + parsed.getRawAuthority().toLowerCase(Locale.ROOT)
          + path + query;
    } catch (Exception e) {
      return uri;
    }
  }
}
