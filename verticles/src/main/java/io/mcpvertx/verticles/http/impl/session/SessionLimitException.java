package io.mcpvertx.verticles.http.impl.session;

/** The endpoint holds as many sessions (or routes, or store lookups) as it may. */
public final class SessionLimitException extends RuntimeException {

  public SessionLimitException() {
    super("session limit reached", null, false, false);
  }
}
