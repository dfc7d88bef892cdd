package io.mcpvertx.examples.conformance;

import static io.mcpvertx.examples.conformance.ConformanceFixtures.TEST_AUDIO_BASE64;
import static io.mcpvertx.examples.conformance.ConformanceFixtures.TEST_IMAGE_BASE64;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.content.Content;
import io.mcpvertx.server.content.ResourceContents;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Tools whose result is the whole test: one per content type, the tool-level error, the JSON Schema 2020-12
 * tool and the plain {@code greet} tool of the tasks scenarios. None of them waits or talks to the client.
 */
final class ContentTools {

  /**
   * The input schema {@code json-schema-2020-12} reads back from {@code tools/list}: {@code $schema},
   * {@code $defs} with an {@code $anchor}, {@code additionalProperties}, and the composition and conditional
   * keywords that alpha's SEP-2106 checks look for.
   */
  private static final String JSON_SCHEMA_2020_12 = """
      {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
          "address": {
            "$anchor": "addressDef",
            "type": "object",
            "properties": {
              "street": {"type": "string"},
              "city": {"type": "string"}
            }
          }
        },
        "properties": {
          "name": {"type": "string"},
          "address": {"$ref": "#/$defs/address"},
          "contactMethod": {"type": "string", "enum": ["phone", "email"]},
          "phone": {"type": "string"},
          "email": {"type": "string"}
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
      }
      """;

  private ContentTools() {
  }

  static void register(McpServer server) {
    server.tool(noArgs("test_simple_text", "Tests simple text content response"),
        (args, ctx) -> Future.succeededFuture(ToolResult.text("This is a simple text response for testing.")));

    server.tool(noArgs("test_image_content", "Tests image content response"),
        (args, ctx) -> Future.succeededFuture(ToolResult.of(Content.image(TEST_IMAGE_BASE64, "image/png"))));

    server.tool(noArgs("test_audio_content", "Tests audio content response"),
        (args, ctx) -> Future.succeededFuture(ToolResult.of(Content.audio(TEST_AUDIO_BASE64, "audio/wav"))));

    server.tool(noArgs("test_embedded_resource", "Tests embedded resource content response"),
        (args, ctx) -> Future.succeededFuture(ToolResult.of(Content.resource(ResourceContents.text(
            "test://embedded-resource", "text/plain", "This is an embedded resource content.")))));

    server.tool(noArgs("test_multiple_content_types",
        "Tests response with multiple content types (text, image, resource)"),
        (args, ctx) -> Future.succeededFuture(ToolResult.of(
            Content.text("Multiple content types test:"),
            Content.image(TEST_IMAGE_BASE64, "image/png"),
            Content.resource(ResourceContents.text("test://mixed-content-resource", "application/json",
                new JsonObject().put("test", "data").put("value", 123).encode())))));

    // A tool-level error (isError), which the model reads; a JSON-RPC error would fail tools-call-error.
    server.tool(noArgs("test_error_handling", "Tests error response handling"),
        (args, ctx) -> Future.succeededFuture(
            ToolResult.error("This tool intentionally returns an error for testing")));

    server.tool(Tool.builder("json_schema_2020_12_tool")
            .description("Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)")
            .inputSchema(jsonSchema2020())
            .build(),
        (args, ctx) -> Future.succeededFuture(
            ToolResult.text("JSON Schema 2020-12 tool called with: " + args.encode())));

    // The synchronous tool of the tasks scenarios; it needs nothing from the tasks extension.
    server.tool(Tool.builder("greet")
            .description("Greets someone by name; never runs as a task")
            .inputSchema(new JsonObject("""
                {"type": "object",
                 "properties": {"name": {"type": "string", "description": "Who to greet"}},
                 "required": ["name"]}
                """))
            .build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text("Hello, " + args.getString("name") + "!")));
  }

  /** A fresh copy of the 2020-12 input schema (JSON objects are mutable, so none is shared). */
  static JsonObject jsonSchema2020() {
    return new JsonObject(JSON_SCHEMA_2020_12);
  }

  /** A tool that takes no arguments: {@code {"type":"object","properties":{}}}. */
  static Tool noArgs(String name, String description) {
    return Tool.builder(name).description(description).build();
  }
}
