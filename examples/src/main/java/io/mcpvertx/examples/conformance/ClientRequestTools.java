package io.mcpvertx.examples.conformance;

import static io.mcpvertx.examples.conformance.ContentTools.noArgs;

import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.client.ElicitResult;
import io.mcpvertx.server.client.SamplingRequest;
import io.mcpvertx.server.client.SamplingResult;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Tools that ask the client something while they run: sampling, and elicitation with the form schemas the
 * elicitation scenarios inspect. The server-to-client request goes out on the call's own stream.
 *
 * <p>When the client cannot answer (it did not declare the capability, or failed, or timed out), the tool
 * returns a tool-level error saying why, as the scenarios' "return an error" asks.
 */
final class ClientRequestTools {

  /** {@code tools-call-elicitation} answers with {@code username} and {@code email}, so the form asks for them. */
  private static final String USER_FORM = """
      {"type": "object",
       "properties": {
         "username": {"type": "string", "description": "User's response"},
         "email": {"type": "string", "description": "User's email address", "format": "email"}
       },
       "required": ["username", "email"]}
      """;

  /** SEP-1034: a default on every primitive type, read back by {@code elicitation-sep1034-defaults}. */
  private static final String DEFAULTS_FORM = """
      {"type": "object",
       "properties": {
         "name": {"type": "string", "description": "User name", "default": "John Doe"},
         "age": {"type": "integer", "description": "User age", "default": 30},
         "score": {"type": "number", "description": "User score", "default": 95.5},
         "status": {"type": "string", "description": "User status",
                    "enum": ["active", "inactive", "pending"], "default": "active"},
         "verified": {"type": "boolean", "description": "Verification status", "default": true}
       },
       "required": []}
      """;

  /** SEP-1330: the five enum shapes, one field each, read back by {@code elicitation-sep1330-enums}. */
  private static final String ENUMS_FORM = """
      {"type": "object",
       "properties": {
         "untitledSingle": {"type": "string", "description": "Select one option",
                            "enum": ["option1", "option2", "option3"]},
         "titledSingle": {"type": "string", "description": "Select one option with titles",
                          "oneOf": [{"const": "value1", "title": "First Option"},
                                    {"const": "value2", "title": "Second Option"},
                                    {"const": "value3", "title": "Third Option"}]},
         "legacyEnum": {"type": "string", "description": "Select one option (legacy)",
                        "enum": ["opt1", "opt2", "opt3"],
                        "enumNames": ["Option One", "Option Two", "Option Three"]},
         "untitledMulti": {"type": "array", "description": "Select multiple options",
                           "minItems": 1, "maxItems": 3,
                           "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
         "titledMulti": {"type": "array", "description": "Select multiple options with titles",
                         "minItems": 1, "maxItems": 3,
                         "items": {"anyOf": [{"const": "value1", "title": "First Choice"},
                                             {"const": "value2", "title": "Second Choice"},
                                             {"const": "value3", "title": "Third Choice"}]}}
       },
       "required": []}
      """;

  private ClientRequestTools() {
  }

  static void register(McpServer server) {
    server.tool(Tool.builder("test_sampling")
            .description("Tests server-initiated sampling (LLM completion request)")
            .inputSchema(oneString("prompt", "The prompt to send to the LLM"))
            .build(),
        (args, ctx) -> ctx.sample(SamplingRequest.prompt(args.getString("prompt"), 100))
            .map(result -> ToolResult.text("LLM response: " + text(result)))
            .recover(failure -> failed("Sampling", failure)));

    server.tool(Tool.builder("test_elicitation")
            .description("Tests server-initiated elicitation (user input request)")
            .inputSchema(oneString("message", "The message to show the user"))
            .build(),
        (args, ctx) -> elicit(ctx, args.getString("message"), USER_FORM, "User response"));

    server.tool(noArgs("test_elicitation_sep1034_defaults", "Tests elicitation with default values per SEP-1034"),
        (args, ctx) -> elicit(ctx, "Please review and update the form fields with defaults", DEFAULTS_FORM,
            "Elicitation completed"));

    server.tool(noArgs("test_elicitation_sep1330_enums",
        "Tests elicitation with enum schema improvements per SEP-1330"),
        (args, ctx) -> {
          if (!ctx.protocolVersion().supports(ProtocolFeature.ELICITATION_ENUM_SCHEMAS)) {
            // Titled and multi-select enum fields are not valid form fields before 2025-11-25.
            return Future.succeededFuture(ToolResult.error("test_elicitation_sep1330_enums needs protocol "
                + "2025-11-25 or later; " + ctx.protocolVersion().id() + " has no titled or multi-select enums"));
          }
          return elicit(ctx, "Please select options from the enum fields", ENUMS_FORM, "Elicitation completed");
        });
  }

  private static Future<ToolResult> elicit(RequestContext ctx, String message, String form, String label) {
    return ctx.elicit(ElicitRequest.form(message, new JsonObject(form)))
        .map(answer -> ToolResult.text(label + ": " + describe(answer)))
        .recover(failure -> failed("Elicitation", failure));
  }

  /** {@code action=accept, content={...}}; declined and cancelled answers have no content. */
  private static String describe(ElicitResult answer) {
    JsonObject content = answer.content() == null ? new JsonObject() : answer.content();
    return "action=" + answer.action() + ", content=" + content.encode();
  }

  private static String text(SamplingResult result) {
    String text = result.text();
    return text != null ? text : "(a non-text " + result.role() + " message from " + result.model() + ")";
  }

  private static Future<ToolResult> failed(String what, Throwable failure) {
    return Future.succeededFuture(ToolResult.error(what + " failed: " + failure.getMessage()));
  }

  /** An object schema with one required string property. */
  private static JsonObject oneString(String name, String description) {
    return new JsonObject()
        .put("type", "object")
        .put("properties", new JsonObject().put(name,
            new JsonObject().put("type", "string").put("description", description)))
        .put("required", new JsonArray().add(name));
  }
}
