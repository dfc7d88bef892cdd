package io.mcpvertx.spi;

/** A {@code Last-Event-ID} the store cannot resume from. An expected condition: no stack trace. */
public class UnknownEventException extends RuntimeException {

  public UnknownEventException(String message) {
    super(message, null, false, false);
  }
}
