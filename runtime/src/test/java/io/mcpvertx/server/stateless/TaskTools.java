package io.mcpvertx.server.stateless;

import static io.mcpvertx.server.stateless.StatelessFixtures.name;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.client.SamplingRequest;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolExecution;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Tools that run as tasks of the tasks extension, for the task tests. Where a handler would be slow it waits in
 * {@link HeldCalls} instead, so the tests decide when it goes on. Tools named {@code *_now} become tasks at once;
 * {@code *_later} ones only when still running after {@link #PROMOTE_AFTER_MS}.
 */
final class TaskTools {

  /** Short, so a held call is promoted soon; a handler that finishes at once is never promoted. */
  static final long PROMOTE_AFTER_MS = 20;

  private TaskTools() {
  }

  static McpServer register(McpServer server, HeldCalls held) {
    ToolExecution now = ToolExecution.task(TaskSupport.OPTIONAL);
    ToolExecution later = ToolExecution.taskAfter(TaskSupport.OPTIONAL, PROMOTE_AFTER_MS);

    server.tool(Tool.builder("held_now").description("Waits, then reports done").execution(now).build(),
        (args, ctx) -> held.hold(ctx).map(v -> ToolResult.text("done " + args.getString("label", ""))));

    server.tool(Tool.builder("held_later").description("Waits, then reports done").execution(later).build(),
        (args, ctx) -> held.hold(ctx).map(v -> ToolResult.text("done " + args.getString("label", ""))));

    server.tool(Tool.builder("quick_later").description("Answers at once").execution(later).build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text("quick")));

    server.tool(Tool.builder("required_task").description("Only runs as a task")
            .execution(ToolExecution.task(TaskSupport.REQUIRED)).build(),
        (args, ctx) -> held.hold(ctx).map(v -> ToolResult.text("required done")));

    // Asks before its slow part: the question is a multi round-trip, the slow part a task.
    server.tool(Tool.builder("ask_then_work").description("Asks a name, then works on it").execution(later).build(),
        (args, ctx) -> name(ctx, "user_name", "What is your name?")
            .compose(n -> held.hold(ctx).map(v -> ToolResult.text("Hello, " + n))));

    // Asks, goes on without the answer if there is none, then works: its question must still be asked.
    server.tool(Tool.builder("lenient_later").description("Asks, then works with or without the answer")
            .execution(later).build(),
        (args, ctx) -> name(ctx, "who", "Who is it for?").otherwise("nobody")
            .compose(n -> held.hold(ctx).map(v -> ToolResult.text("Worked for " + n))));

    // Asks two questions at once, then works on the answers.
    server.tool(Tool.builder("interview").description("Asks two questions, then works").execution(now).build(),
        (args, ctx) -> {
          Future<String> first = name(ctx, "first", "First name?");
          Future<String> second = name(ctx, "second", "Favourite color?");
          return Future.all(first, second).compose(all -> held.hold(ctx))
              .map(v -> ToolResult.text("Answers: " + first.result() + ", " + second.result()));
        });

    // Works, asks, works again: a question that arrives while the task is running.
    server.tool(Tool.builder("work_ask_work").description("Works, asks, works").execution(now).build(),
        (args, ctx) -> held.hold(ctx).compose(v -> name(ctx, "who", "Who is asking?"))
            .compose(n -> held.hold(ctx).map(v -> ToolResult.text("Finished for " + n))));

    // The same, becoming a task only once it has run a while: its question goes to the task it became.
    server.tool(Tool.builder("work_ask_later").description("Works, asks, finishes").execution(later).build(),
        (args, ctx) -> held.hold(ctx).compose(v -> name(ctx, "who", "Who is asking?"))
            .map(n -> ToolResult.text("Finished for " + n)));

    server.tool(Tool.builder("two_steps").description("Asks one question after the other").execution(now).build(),
        (args, ctx) -> name(ctx, "step1", "Step 1?")
            .compose(a -> name(ctx, "step2", "Step 2?").map(b -> ToolResult.text(a + " then " + b))));

    // A handler bug: the same key again after its answer.
    server.tool(Tool.builder("asks_twice").description("Asks under one key twice").execution(now).build(),
        (args, ctx) -> name(ctx, "k", "Once?").compose(a -> name(ctx, "k", "Twice?"))
            .map(b -> ToolResult.text("never")));

    server.tool(Tool.builder("task_sampler").description("Samples the client's model").execution(now).build(),
        (args, ctx) -> ctx.sample("draft", SamplingRequest.prompt("Draft a reply", 30))
            .map(r -> ToolResult.text("model said " + r.text())));

    server.tool(Tool.builder("tool_error").description("Ends with isError").execution(now).build(),
        (args, ctx) -> held.hold(ctx).map(v -> ToolResult.error("boom: the input was bad")));

    server.tool(Tool.builder("protocol_error").description("Ends with a JSON-RPC error").execution(now).build(),
        (args, ctx) -> held.hold(ctx).compose(v -> Future.failedFuture(
            new McpException(JsonRpcErrorCodes.INTERNAL_ERROR, "The backend is down"))));

    server.tool(Tool.builder("crash").description("Ends with an unexpected exception").execution(now).build(),
        (args, ctx) -> held.hold(ctx).compose(v -> Future.failedFuture(
            new IllegalStateException("secret detail of the crash"))));

    // Reports progress and logs before and after it waits.
    server.tool(Tool.builder("chatty_later").description("Reports progress and logs").execution(later).build(),
        (args, ctx) -> {
          ctx.progress(1, 3.0, "started");
          ctx.log(LoggingLevel.WARNING, "chatty", "before the wait");
          return held.hold(ctx).map(v -> {
            ctx.progress(2, 3.0, "going on");
            ctx.log(LoggingLevel.WARNING, "chatty", "after the wait");
            return ToolResult.text("chatted");
          });
        });
    return server;
  }

  /** A tools/call's params, with empty arguments. */
  static JsonObject call(String tool) {
    return StatelessFixtures.call(tool, new JsonObject());
  }

  /** The text of a call result's first content block. */
  static String text(JsonObject callResult) {
    return callResult.getJsonArray("content").getJsonObject(0).getString("text");
  }
}
