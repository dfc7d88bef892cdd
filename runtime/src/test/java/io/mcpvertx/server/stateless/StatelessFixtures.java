package io.mcpvertx.server.stateless;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.ServerInfo;
import io.mcpvertx.server.StatelessOptions;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.client.ElicitResult;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.client.Root;
import io.mcpvertx.server.client.SamplingRequest;
import io.mcpvertx.server.completion.Completion;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptArgument;
import io.mcpvertx.server.prompts.PromptMessage;
import io.mcpvertx.server.prompts.PromptResult;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceResult;
import io.mcpvertx.server.resources.ResourceTemplate;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One server with a bit of everything, its handlers written once for both generations: they call
 * {@code ctx.elicit/sample/roots} with keys, and the runtime turns that into server-to-client requests (sessions)
 * or {@code input_required} results (2026-07-28).
 */
final class StatelessFixtures {

  static final String KEY = "0123456789abcdef0123456789abcdef-test-key";
  static final String DOC = "test://doc";

  private StatelessFixtures() {
  }

  static McpServerOptions options() {
    return new McpServerOptions()
        .setServerInfo(ServerInfo.of("stateless-fixtures", "9.9.9"))
        .setInstructions("Fixtures for the stateless tests")
        .setStatelessOptions(new StatelessOptions()
            .setRequestStateKeys(List.of(KEY))
            .setListTtlMs(60_000).setListCacheScope("public")
            .setReadTtlMs(5_000).setReadCacheScope("private"));
  }

  static McpServer server(Vertx vertx) {
    return register(McpServer.create(vertx, options()));
  }

  static McpServer register(McpServer server) {
    server.tool(Tool.builder("echo").description("Echoes text")
            .inputSchema(new JsonObject("""
                {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
                """)).build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text(args.getString("text"))));

    server.tool(Tool.builder("ask_name").description("Asks the user for a name").build(),
        (args, ctx) -> name(ctx, "user_name", "What is your name?").map(n -> ToolResult.text("Hello, " + n)));

    server.tool(Tool.builder("greet_in").description("Asks a name, then greets in a language")
            .inputSchema(new JsonObject("""
                {"type": "object", "properties": {"language": {"type": "string"}}}
                """)).build(),
        (args, ctx) -> name(ctx, "user_name", "What is your name?")
            .map(n -> ToolResult.text(args.getString("language", "en") + ": hello " + n)));

    server.tool(Tool.builder("two_rounds").description("Asks two questions in turn").build(),
        (args, ctx) -> name(ctx, "step1", "Step 1: name?")
            .compose(n -> ctx.elicit("step2", ElicitRequest.form("Step 2: color?", oneString("color")))
                .map(c -> ToolResult.text(n + " likes " + c.content().getString("color")))));

    server.tool(Tool.builder("all_three").description("Asks for a name, a sampling and the roots at once").build(),
        (args, ctx) -> {
          Future<String> name = name(ctx, "name", "Name?");
          Future<String> sample = ctx.sample("greeting", SamplingRequest.prompt("Say hi", 20))
              .map(r -> r.text());
          Future<List<Root>> roots = ctx.roots("roots");
          return Future.all(name, sample, roots).map(v -> ToolResult.text(name.result() + "|" + sample.result()
              + "|" + roots.result().stream().map(Root::uri).collect(Collectors.joining(","))));
        });

    server.tool(Tool.builder("needs_sampling").description("Samples the client's model").build(),
        (args, ctx) -> ctx.sample("probe", SamplingRequest.prompt("Say OK", 5))
            .map(r -> ToolResult.text("model said " + r.text())));

    server.tool(Tool.builder("chatty").description("Reports progress and logs").build(),
        (args, ctx) -> {
          ctx.progress(1, 2.0, "half");
          ctx.log(LoggingLevel.DEBUG, "chatty", "debug line");
          ctx.log(LoggingLevel.WARNING, "chatty", "warning line");
          ctx.progress(2, 2.0, "done");
          return Future.succeededFuture(ToolResult.text("chatted"));
        });

    server.tool(Tool.builder("regional").description("Has arguments mirrored in Mcp-Param headers")
            .inputSchema(new JsonObject("""
                {"type": "object",
                 "properties": {
                   "region": {"type": "string", "x-mcp-header": "Region"},
                   "count": {"type": "integer", "x-mcp-header": "Count"},
                   "dry": {"type": "boolean", "x-mcp-header": "Dry-Run"},
                   "query": {"type": "string"}},
                 "required": ["region"]}
                """)).build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text("region " + args.getString("region"))));

    server.prompt(Prompt.of("context_prompt", "Asks for context, then builds a prompt",
            PromptArgument.optional("topic", "A topic")),
        (args, ctx) -> ctx.elicit("user_context", ElicitRequest.form("Context?", oneString("context")))
            .map(answer -> PromptResult.of(PromptMessage.user(args.getOrDefault("topic", "general") + ": "
                + field(answer, "context")))));

    server.resource(Resource.of(DOC, "doc", "text/plain").withDescription("A document"),
        (uri, ctx) -> Future.succeededFuture(ResourceResult.text(uri, "text/plain", "the document")));

    server.resource(Resource.of("test://secret", "secret", "text/plain").withDescription("Needs a confirmation"),
        (uri, ctx) -> ctx.elicit("confirm", ElicitRequest.form("Show the secret?", oneString("ok")))
            .map(answer -> ResourceResult.text(uri, "text/plain", answer.accepted() ? "s3cret" : "withheld")));

    server.resourceTemplate(ResourceTemplate.of("test://items/{id}", "items", "application/json")
            .withDescription("Items by id"),
        (uri, vars, ctx) -> Future.succeededFuture(ResourceResult.text(uri, "application/json",
            new JsonObject().put("id", vars.get("id")).encode())));

    server.promptCompletion("context_prompt", "topic", (request, ctx) -> Future.succeededFuture(
        Completion.matching(List.of("alpha", "beta"), request.value())));
    return server;
  }

  static Future<String> name(io.mcpvertx.server.RequestContext ctx, String key, String message) {
    return ctx.elicit(key, ElicitRequest.form(message, oneString("name"))).map(answer -> field(answer, "name"));
  }

  static String field(ElicitResult answer, String name) {
    return answer.accepted() && answer.content() != null ? answer.content().getString(name) : answer.action();
  }

  static JsonObject oneString(String name) {
    return new JsonObject().put("type", "object")
        .put("properties", new JsonObject().put(name, new JsonObject().put("type", "string")))
        .put("required", new JsonArray().add(name));
  }

  /** An accepted elicitation answer with one field. */
  static JsonObject accept(String field, String value) {
    return new JsonObject().put("action", "accept").put("content", new JsonObject().put(field, value));
  }

  static JsonObject sampled(String text) {
    return new JsonObject().put("role", "assistant").put("model", "test-model").put("stopReason", "endTurn")
        .put("content", new JsonObject().put("type", "text").put("text", text));
  }

  static JsonObject roots(String... uris) {
    JsonArray roots = new JsonArray();
    for (String uri : uris) {
      roots.add(new JsonObject().put("uri", uri));
    }
    return new JsonObject().put("roots", roots);
  }

  static JsonObject call(String tool, JsonObject arguments) {
    JsonObject params = new JsonObject().put("name", tool);
    if (arguments != null) {
      params.put("arguments", arguments);
    }
    return params;
  }
}
