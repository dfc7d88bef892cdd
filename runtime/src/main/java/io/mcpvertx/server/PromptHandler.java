package io.mcpvertx.server;

import io.mcpvertx.server.prompts.PromptResult;
import io.vertx.core.Future;
import java.util.Map;

/**
 * Renders a prompt. Required arguments have been checked before it runs. Runs on the session's event loop: it
 * must not block.
 */
@FunctionalInterface
public interface PromptHandler {

  Future<PromptResult> get(Map<String, String> arguments, RequestContext ctx);
}
