package io.mcpvertx.server;

import io.mcpvertx.server.resources.ResourceResult;
import io.vertx.core.Future;

/** Reads one concrete resource. Runs on the session's event loop: it must not block. */
@FunctionalInterface
public interface ResourceHandler {

  Future<ResourceResult> read(String uri, RequestContext ctx);
}
