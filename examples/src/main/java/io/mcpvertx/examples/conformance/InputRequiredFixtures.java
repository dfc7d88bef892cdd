package io.mcpvertx.examples.conformance;

import static io.mcpvertx.examples.conformance.ContentTools.noArgs;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.client.ElicitResult;
import io.mcpvertx.server.client.Root;
import io.mcpvertx.server.client.SamplingRequest;
import io.mcpvertx.server.client.SamplingResult;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptMessage;
import io.mcpvertx.server.prompts.PromptResult;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The tools and the prompt of the {@code input-required-result-*} scenarios (SEP-2322, multi round-trip requests).
 * Each handler simply asks the client through {@link RequestContext#elicit(String, ElicitRequest)},
 * {@link RequestContext#sample(String, SamplingRequest)} or {@link RequestContext#roots(String)}: over a 2025
 * session that is a server-to-client request on the call's stream; over 2026-07-28 the runtime answers the call
 * with {@code resultType: "input_required"} and resumes it when the client retries with its answers. The keys
 * name each question, so a retry's {@code inputResponses} find their way back; the scenarios look for
 * {@code user_name} and read the other keys from the result.
 */
final class InputRequiredFixtures {

  static final String PROMPT = "test_input_required_result_prompt";

  private InputRequiredFixtures() {
  }

  static void register(McpServer server) {
    server.tool(noArgs("test_input_required_result_elicitation", "MRTR: tool that asks the user for their name"),
        (args, ctx) -> askName(ctx, "user_name", "What is your name?")
            .map(name -> ToolResult.text("Hello, " + name + "!")));

    server.tool(noArgs("test_input_required_result_sampling", "MRTR: tool that asks the client's model a question"),
        (args, ctx) -> ctx.sample("sample_request", SamplingRequest.prompt("What is the capital of France?", 100))
            .map(answer -> ToolResult.text("The model answered: " + text(answer))));

    server.tool(noArgs("test_input_required_result_list_roots", "MRTR: tool that asks the client for its roots"),
        (args, ctx) -> ctx.roots("roots_request").map(roots -> ToolResult.text("Client roots: " + describe(roots))));

    server.tool(noArgs("test_input_required_result_request_state",
            "MRTR: tool that asks for a confirmation and carries its progress in requestState"),
        (args, ctx) -> ctx.elicit("confirm", ElicitRequest.form("Please confirm", confirmForm()))
            .map(answer -> ToolResult.text(answer.accepted()
                ? "Confirmed: " + answer.content().encode() : "Not confirmed (" + answer.action() + ")")));

    // Three questions at once: all three are asked before any answer is awaited, so one round collects them all.
    server.tool(noArgs("test_input_required_result_multiple_inputs",
            "MRTR: tool that needs an elicitation, a sampling and the roots in one round"),
        (args, ctx) -> {
          Future<String> name = askName(ctx, "user_name", "What is your name?");
          Future<SamplingResult> greeting = ctx.sample("greeting", SamplingRequest.prompt("Generate a greeting", 50));
          Future<List<Root>> roots = ctx.roots("client_roots");
          return Future.all(name, greeting, roots).map(all -> ToolResult.text("Name: " + name.result()
              + "; greeting: " + text(greeting.result()) + "; roots: " + describe(roots.result())));
        });

    // The second question is only asked once the first is answered: two rounds of input_required.
    server.tool(noArgs("test_input_required_result_multi_round", "MRTR: tool that asks two questions in turn"),
        (args, ctx) -> askName(ctx, "step1", "Step 1: What is your name?")
            .compose(name -> ctx.elicit("step2", ElicitRequest.form("Step 2: What is your favorite color?",
                    oneString("color", "Your favorite color")))
                .map(color -> ToolResult.text(name + "'s favorite color is " + field(color, "color")))));

    server.tool(noArgs("test_input_required_result_tampered_state",
            "MRTR: tool whose requestState must come back unaltered"),
        (args, ctx) -> ctx.elicit("confirm", ElicitRequest.form("Please confirm", confirmForm()))
            .map(answer -> ToolResult.text("Confirmed with an intact request state (" + answer.action() + ")")));

    // Asks only for what the client declared on this request: never an elicitation to a client without it.
    server.tool(noArgs("test_input_required_result_capabilities",
            "MRTR: tool that asks for elicitation and/or sampling, as the client's capabilities allow"),
        (args, ctx) -> {
          List<Future<String>> asked = new ArrayList<>();
          if (ctx.client().supportsElicitationForm()) {
            asked.add(askName(ctx, "elicit_input", "What is your name?").map(name -> "name " + name));
          }
          if (ctx.client().supportsSampling()) {
            asked.add(ctx.sample("sample_input", SamplingRequest.prompt("What is the capital of France?", 100))
                .map(answer -> "model " + text(answer)));
          }
          if (asked.isEmpty()) {
            return Future.succeededFuture(ToolResult.text("The client declared neither elicitation nor sampling"));
          }
          return Future.join(new ArrayList<>(asked)).map(all -> ToolResult.text("Answers: "
              + asked.stream().map(Future::result).collect(Collectors.joining(", "))));
        });

    registerPrompt(server);
  }

  /** The prompt of {@code input-required-result-non-tool-request}: MRTR works on prompts/get too. */
  static void registerPrompt(McpServer server) {
    server.prompt(Prompt.of(PROMPT, "MRTR: prompt that requires elicitation input"),
        (args, ctx) -> ctx.elicit("user_context", ElicitRequest.form("What context should the prompt use?",
                oneString("context", "Context for the prompt")))
            .map(answer -> PromptResult.of(PromptMessage.user("Write a short summary using this context: "
                + field(answer, "context")))));
  }

  /** Asks for a name; a declined or cancelled form yields the action in parentheses. */
  private static Future<String> askName(RequestContext ctx, String key, String message) {
    return ctx.elicit(key, ElicitRequest.form(message, oneString("name", "Your name")))
        .map(answer -> field(answer, "name"));
  }

  private static String field(ElicitResult answer, String name) {
    if (!answer.accepted() || answer.content() == null) {
      return "(" + answer.action() + ")";
    }
    return String.valueOf(answer.content().getValue(name, "anonymous"));
  }

  private static String text(SamplingResult result) {
    String text = result.text();
    return text != null ? text : "(non-text content from " + result.model() + ")";
  }

  private static String describe(List<Root> roots) {
    if (roots.isEmpty()) {
      return "none";
    }
    return roots.stream().map(r -> r.name() == null ? r.uri() : r.name() + " (" + r.uri() + ")")
        .collect(Collectors.joining(", "));
  }

  private static JsonObject confirmForm() {
    return new JsonObject().put("type", "object")
        .put("properties", new JsonObject().put("ok",
            new JsonObject().put("type", "boolean").put("description", "Confirm to continue")))
        .put("required", new JsonArray().add("ok"));
  }

  private static JsonObject oneString(String name, String description) {
    return new JsonObject().put("type", "object")
        .put("properties", new JsonObject().put(name,
            new JsonObject().put("type", "string").put("description", description)))
        .put("required", new JsonArray().add(name));
  }
}
