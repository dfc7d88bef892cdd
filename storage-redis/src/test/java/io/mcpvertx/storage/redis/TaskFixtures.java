package io.mcpvertx.storage.redis;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolExecution;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * The tools every server of these tests registers, whichever instance it is:
 * <ul>
 *   <li>{@code gated}: a task (on both wires) that runs until the test opens its gate, named by argument
 *       {@code gate}; the test learns on which instance it runs and whether it was told it was cancelled;
 *   <li>{@code quick}: a task that completes after {@code delayMs} (default 0) with the text {@code done};
 *   <li>{@code ask}: a task that asks for a name (elicitation, key {@code name}) and greets it;
 *   <li>{@code echo}: a direct call, no task, no store: answers its {@code text}.
 * </ul>
 * Thread-safe: handlers run on the servers' event loops, the test waits on its own thread.
 */
final class TaskFixtures {

  /** A running {@code gated} handler. */
  static final class Gate {
    final String instance;
    private final Context context;
    private final Promise<String> release = Promise.promise();
    /** Completes with the reason the handler was given when its task was cancelled (or expired). */
    final CompletableFuture<String> cancelled = new CompletableFuture<>();

    private Gate(String instance, Context context) {
      this.instance = instance;
      this.context = context;
    }

    /** Lets the handler finish with {@code text}, on its own context. */
    void open(String text) {
      context.runOnContext(v -> release.tryComplete(text));
    }
  }

  private final ConcurrentMap<String, CompletableFuture<Gate>> gates = new ConcurrentHashMap<>();

  void register(McpServer server, String instance) {
    server.tool(Tool.builder("gated").description("Runs until the test lets it finish")
        .execution(ToolExecution.task(TaskSupport.OPTIONAL)).build(), (args, ctx) -> {
          Gate gate = new Gate(instance, Vertx.currentContext());
          ctx.onCancel(reason -> {
            gate.cancelled.complete(String.valueOf(reason));
            gate.release.tryFail(new McpException(JsonRpcErrorCodes.REQUEST_CANCELLED, "Cancelled: " + reason));
          });
          started(args.getString("gate")).complete(gate);
          return gate.release.future().map(ToolResult::text);
        });
    server.tool(Tool.builder("quick").description("Completes at once, or after delayMs")
        .execution(ToolExecution.task(TaskSupport.OPTIONAL)).build(), (args, ctx) -> {
          long delay = args.getLong("delayMs", 0L);
          if (delay <= 0) {
            return Future.succeededFuture(ToolResult.text("done"));
          }
          Promise<ToolResult> done = Promise.promise();
          ctx.vertx().setTimer(delay, t -> done.complete(ToolResult.text("done")));
          return done.future();
        });
    server.tool(Tool.builder("ask").description("Asks for a name, then greets it")
        .execution(ToolExecution.task(TaskSupport.OPTIONAL)).build(), (args, ctx) ->
        ctx.elicit("name", ElicitRequest.form("Your name?", new JsonObject().put("type", "object")
                .put("properties", new JsonObject().put("name", new JsonObject().put("type", "string")))))
            .map(answer -> ToolResult.text("Hello, " + answer.content().getString("name") + " (from " + instance
                + ")")));
    server.tool(Tool.builder("echo").description("Answers its text directly").build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text(args.getString("text", ""))));
  }

  private CompletableFuture<Gate> started(String name) {
    return gates.computeIfAbsent(name, k -> new CompletableFuture<>());
  }

  /** The handler of the {@code gated} call with this gate, once it has started. */
  Gate awaitStarted(String name) {
    try {
      return started(name).get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("the handler of gate " + name + " never started", e);
    }
  }
}
