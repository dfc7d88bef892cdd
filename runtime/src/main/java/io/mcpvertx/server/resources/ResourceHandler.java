package io.mcpvertx.server.resources;

import io.mcpvertx.server.RequestContext;
import io.vertx.core.Future;

/** Reads one concrete resource. Runs on the session's event loop: it must not block. */
@FunctionalInterface
public interface ResourceHandler {

  Future<ResourceResult> read(String uri, RequestContext ctx);
}
