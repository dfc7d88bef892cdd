package io.mcpvertx.annotations;

/**
 * An annotated handler that cannot be served as declared: a duplicate name, a parameter type that cannot be bound,
 * a schema that does not compile, a missing description. The message names the class and the method.
 */
public class HandlerDefinitionException extends IllegalArgumentException {

  public HandlerDefinitionException(String message) {
    super(message);
  }

  public HandlerDefinitionException(String message, Throwable cause) {
    super(message, cause);
  }
}
