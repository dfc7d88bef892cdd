package io.mcpvertx.server.impl.stateless;

/**
 * The failure a stateless handler sees when it asks the client for input that has not been given yet. The
 * engine answers the request with {@code resultType: "input_required"} instead of the handler's outcome; a
 * handler need not (and should not) handle it. An expected condition: no stack trace.
 */
final class InputRequired extends RuntimeException {

  InputRequired(String key) {
    super("Input required: " + key + " (the request will be retried with the client's answer)", null, false, false);
  }
}
