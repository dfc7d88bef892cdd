package io.mcpvertx.server;

import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.resources.ResourceResult;
import io.mcpvertx.server.resources.ResourceTemplate;
import io.vertx.core.Future;
import java.util.Map;

/**
 * Reads a resource whose URI matched a {@link ResourceTemplate}. Runs on the session's event loop: it must not
 * block. Fail with {@link McpException} to report that no such resource exists.
 */
@FunctionalInterface
public interface ResourceTemplateHandler {

  Future<ResourceResult> read(String uri, Map<String, String> variables, RequestContext ctx);
}
