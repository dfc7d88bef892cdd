package io.mcpvertx.server.completion;

import java.util.Map;

/**
 * A {@code completion/complete} for one prompt argument or template variable.
 *
 * @param argument the argument or variable being completed
 * @param value what the user has typed so far
 * @param context values already chosen for other arguments (2025-06-18 and later; otherwise empty)
 */
public record CompletionRequest(String argument, String value, Map<String, String> context) {

  public CompletionRequest {
    context = context == null ? Map.of() : Map.copyOf(context);
  }
}
