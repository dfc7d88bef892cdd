package io.mcpvertx.verticles.http.impl.session;

/** A store a session needs could not be reached; the client should retry. */
public final class StoreUnavailableException extends RuntimeException {

  public StoreUnavailableException(Throwable cause) {
    super("a store did not answer: " + cause.getMessage(), cause, false, false);
  }
}
