package io.mcpvertx.server.completion;

import io.mcpvertx.server.RequestContext;
import io.vertx.core.Future;

/** Suggests values for one prompt argument or URI-template variable. Must not block. */
@FunctionalInterface
public interface CompletionHandler {

  Future<Completion> complete(CompletionRequest request, RequestContext ctx);
}
