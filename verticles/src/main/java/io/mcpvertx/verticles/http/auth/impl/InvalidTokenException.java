package io.mcpvertx.verticles.http.auth.impl;

/**
 * A request's credentials were refused: the RFC 6750 error code ({@code invalid_token}, or {@code invalid_request}
 * for a malformed {@code Authorization} header) and a description safe to show the client. Expected, so it has no
 * stack trace.
 */
public final class InvalidTokenException extends RuntimeException {

  public static final String INVALID_TOKEN = "invalid_token";
  public static final String INVALID_REQUEST = "invalid_request";

  private final String error;

  public InvalidTokenException(String error, String description) {
    super(description, null, false, false);
    this.error = error;
  }

  public static InvalidTokenException invalidToken(String description) {
    return new InvalidTokenException(INVALID_TOKEN, description);
  }

  /** The RFC 6750 error code. */
  public String error() {
    return error;
  }
}
