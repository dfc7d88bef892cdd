package io.mcpvertx.verticles.http.auth.impl;

/**
 * The authorization server could not be asked (down, slow, or answering nonsense), so a token could be neither
 * accepted nor refused: the request gets 503, not 401, and the client keeps its token.
 */
public final class AuthServerUnavailableException extends RuntimeException {

  public AuthServerUnavailableException(String message) {
    super(message, null, false, false);
  }
}
