package io.mcpvertx.verticles.http.auth.impl;

import java.util.Collection;

/**
 * {@code WWW-Authenticate} values for the {@code Bearer} scheme (RFC 6750 section 3, RFC 9728 section 5.1): always
 * the {@code resource_metadata} URL, the {@code scope} hint when there is one, and the error once a token was
 * presented (a request without credentials gets no error code, as RFC 6750 asks).
 */
public final class BearerChallenge {

  private BearerChallenge() {
  }

  /** The challenge of a 401: no token, or one that was refused ({@code error} null for the former). */
  public static String unauthorized(String metadataUrl, Collection<String> scopes, InvalidTokenException error) {
    StringBuilder challenge = new StringBuilder("Bearer ");
    if (error != null) {
      param(challenge, "error", error.error());
      param(challenge, "error_description", error.getMessage());
    }
    param(challenge, "resource_metadata", metadataUrl);
    if (!scopes.isEmpty()) {
      param(challenge, "scope", String.join(" ", scopes));
    }
    return challenge.toString();
  }

  /** The challenge of a 403 asking for step-up: the scopes this request needs. */
  public static String insufficientScope(String metadataUrl, Collection<String> scopes, String description) {
    StringBuilder challenge = new StringBuilder("Bearer ");
    param(challenge, "error", "insufficient_scope");
    param(challenge, "scope", String.join(" ", scopes));
    param(challenge, "resource_metadata", metadataUrl);
    param(challenge, "error_description", description);
    return challenge.toString();
  }

  private static void param(StringBuilder challenge, String name, String value) {
    if (challenge.length() > "Bearer ".length()) {
      challenge.append(", ");
    }
    challenge.append(name).append("=\"").append(quotable(value)).append('"');
  }

  /** RFC 6750 allows %x20-21 / %x23-5B / %x5D-7E inside these quoted strings: no quote, no backslash, no controls. */
  static String quotable(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      out.append(c >= 0x20 && c <= 0x7E && c != '"' && c != '\\' ? c : '\'');
    }
    return out.toString();
  }
}
