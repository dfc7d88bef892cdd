package io.mcpvertx.server;

import io.mcpvertx.server.completion.Completion;
import io.mcpvertx.server.completion.CompletionRequest;
import io.vertx.core.Future;

/** Suggests values for one prompt argument or URI-template variable. Must not block. */
@FunctionalInterface
public interface CompletionHandler {

  Future<Completion> complete(CompletionRequest request, RequestContext ctx);
}
