package io.mcpvertx.examples.conformance;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.client.ElicitResult;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolExecution;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The task-supporting tools of the {@code tasks-*} scenarios (the tasks extension, SEP-2663), which also serve
 * 2025-11-25 task-augmented calls. Each handler is ordinary tool code: the runtime decides, from the tool's
 * {@link ToolExecution}, whether the call is answered directly or becomes a task, and routes the handler's
 * questions to multi round-trip requests, to the task's {@code inputRequests}, or to session requests.
 */
final class TaskFixtures {

  private TaskFixtures() {
  }

  static void register(McpServer server) {
    // Runs directly when quick (seconds: 0); becomes a task once it has run for 100 ms.
    server.tool(Tool.builder("slow_compute")
            .description("Sleeps for the given number of seconds, then reports the label; stops when cancelled")
            .inputSchema(new JsonObject("""
                {"type": "object",
                 "properties": {"seconds": {"type": "number", "minimum": 0, "maximum": 600},
                                "label": {"type": "string"}}}"""))
            .execution(ToolExecution.taskAfter(TaskSupport.OPTIONAL, 100)
                .withImmediateResponse("The computation is running as a task."))
            .build(),
        (args, ctx) -> {
          double seconds = args.getDouble("seconds", 1.0);
          String label = args.getString("label", "computation");
          return sleep(ctx, (long) (seconds * 1000)).map(v ->
              ToolResult.text("Computed " + label + " in " + seconds + " s"));
        });

    server.tool(Tool.builder("failing_job")
            .description("A task that finishes with a tool error (isError: true)")
            .execution(ToolExecution.task(TaskSupport.REQUIRED))
            .build(),
        (args, ctx) -> sleep(ctx, 100).map(v -> ToolResult.error("The job failed: the input could not be processed")));

    server.tool(Tool.builder("protocol_error_job")
            .description("A task whose handler fails with a JSON-RPC error")
            .execution(ToolExecution.task(TaskSupport.OPTIONAL))
            .build(),
        (args, ctx) -> sleep(ctx, 100).compose(v -> Future.failedFuture(
            new McpException(JsonRpcErrorCodes.INTERNAL_ERROR, "The job hit an internal error"))));

    server.tool(Tool.builder("confirm_delete")
            .description("Asks the user to confirm before deleting a file (as a task)")
            .inputSchema(new JsonObject("""
                {"type": "object", "properties": {"filename": {"type": "string"}}, "required": ["filename"]}"""))
            .execution(ToolExecution.task(TaskSupport.OPTIONAL))
            .build(),
        (args, ctx) -> {
          String filename = args.getString("filename");
          return ctx.elicit("confirm_delete", ElicitRequest.form("Delete " + filename + "?", confirmSchema()))
              .map(answer -> ToolResult.text(confirmed(answer) ? "Deleted " + filename : "Kept " + filename));
        });

    // Two questions at once, so two input requests are open together.
    server.tool(Tool.builder("multi_input")
            .description("Asks two questions at once (as a task)")
            .execution(ToolExecution.task(TaskSupport.OPTIONAL))
            .build(),
        (args, ctx) -> {
          Future<ElicitResult> first = ctx.elicit("first", ElicitRequest.form("First question", nameSchema()));
          Future<ElicitResult> second = ctx.elicit("second", ElicitRequest.form("Second question", nameSchema()));
          return Future.all(first, second).map(all -> ToolResult.text("Answers: "
              + describe(first.result()) + ", " + describe(second.result())));
        });

    // Asks first (answered over multi round-trip requests, before any task), then works for a while: the last
    // round becomes a task, and its result carries the answer.
    server.tool(Tool.builder("test_tool_with_task")
            .description("Asks for a name, then works on it as a task")
            .execution(ToolExecution.taskAfter(TaskSupport.REQUIRED, 50))
            .build(),
        (args, ctx) -> ctx.elicit("user_name", ElicitRequest.form("What is your name?", nameSchema()))
            .compose(answer -> sleep(ctx, 500).map(v -> ToolResult.text("Hello, " + describe(answer) + "!"))));
  }

  /** Waits without blocking; ends early, failing, if the call or its task is cancelled. */
  private static Future<Void> sleep(RequestContext ctx, long millis) {
    Promise<Void> done = Promise.promise();
    if (millis <= 0) {
      return Future.succeededFuture();
    }
    long timer = ctx.vertx().setTimer(millis, t -> done.tryComplete());
    ctx.onCancel(reason -> {
      ctx.vertx().cancelTimer(timer);
      done.tryFail(new McpException(JsonRpcErrorCodes.REQUEST_CANCELLED, "Cancelled: " + reason));
    });
    return done.future();
  }

  private static boolean confirmed(ElicitResult answer) {
    return answer.accepted() && answer.content() != null
        && Boolean.TRUE.equals(answer.content().getValue("confirm"));
  }

  private static String describe(ElicitResult answer) {
    if (!answer.accepted() || answer.content() == null) {
      return "(" + answer.action() + ")";
    }
    return String.valueOf(answer.content().getValue("name", "anonymous"));
  }

  private static JsonObject confirmSchema() {
    return new JsonObject().put("type", "object")
        .put("properties", new JsonObject().put("confirm",
            new JsonObject().put("type", "boolean").put("description", "Delete the file")))
        .put("required", new JsonArray().add("confirm"));
  }

  private static JsonObject nameSchema() {
    return new JsonObject().put("type", "object")
        .put("properties", new JsonObject()
            .put("name", new JsonObject().put("type", "string").put("description", "Your name"))
            .put("confirm", new JsonObject().put("type", "boolean").put("description", "Confirm")))
        .put("required", new JsonArray().add("name"));
  }
}
