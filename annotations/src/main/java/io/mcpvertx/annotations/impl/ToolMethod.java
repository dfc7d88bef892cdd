package io.mcpvertx.annotations.impl;

import io.mcpvertx.annotations.ToolFailure;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.ToolHandler;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A tool method as a handler: binds the arguments, calls the method, converts its value. Failures map as the
 * {@code McpTool} contract says: {@link McpException} stays a protocol error, {@link ToolFailure} becomes an
 * {@code isError} result with its message, anything else an {@code isError} result with a generic message (the
 * exception goes to the log, never to the client).
 */
final class ToolMethod implements ToolHandler {

  private static final Logger LOG = LoggerFactory.getLogger(ToolMethod.class);

  private final String name;
  private final Invoker invoker;
  private final ToolParams params;
  private final ToolReturn returns;

  ToolMethod(String name, Invoker invoker, ToolParams params, ToolReturn returns) {
    this.name = name;
    this.invoker = invoker;
    this.params = params;
    this.returns = returns;
  }

  /** Runs where the method declared it runs (blocking ones through the request context's executeBlocking). */
  @Override
  public Future<ToolResult> call(JsonObject arguments, RequestContext ctx) {
    if (invoker.blocking()) {
      return ctx.executeBlocking(() -> callBlocking(arguments, ctx));
    }
    if (!returns.async()) {
      // The common case, without the intermediate futures of the async path.
      try {
        return Future.succeededFuture(returns.convert(invoker.invoke(params.bind(arguments, ctx))));
      } catch (Exception e) {
        return recover(e);
      }
    }
    Object[] values;
    try {
      values = params.bind(arguments, ctx);
    } catch (RuntimeException e) {
      return recover(e);
    }
    return invoker.call(values, ctx).map(returns::convert).recover(this::recover);
  }

  /** Runs on the calling thread, which may block: what the server's blockingTool runs. */
  ToolResult callBlocking(JsonObject arguments, RequestContext ctx) {
    try {
      return returns.convert(invoker.invoke(params.bind(arguments, ctx)));
    } catch (McpException e) {
      throw e;
    } catch (Exception e) {
      return failure(e);
    }
  }

  private Future<ToolResult> recover(Throwable failure) {
    if (failure instanceof McpException) {
      return Future.failedFuture(failure);
    }
    return Future.succeededFuture(failure(failure));
  }

  private ToolResult failure(Throwable failure) {
    if (failure instanceof ToolFailure toolFailure) {
      return ToolResult.error(toolFailure.getMessage());
    }
    LOG.error("Tool " + name + " failed", failure);
    return ToolResult.error("Tool " + name + " failed with an internal error.");
  }
}
