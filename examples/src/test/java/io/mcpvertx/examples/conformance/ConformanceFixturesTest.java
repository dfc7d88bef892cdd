package io.mcpvertx.examples.conformance;

import static io.mcpvertx.examples.conformance.SuiteProfile.LATEST;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The lifecycle and listing scenarios: {@code server-initialize}, {@code logging-set-level}, {@code ping},
 * {@code completion-complete}, {@code tools-list} and {@code json-schema-2020-12}.
 */
@ExtendWith(VertxExtension.class)
class ConformanceFixturesTest {

  private static final Set<String> TOOLS = Set.of("test_simple_text", "test_image_content", "test_audio_content",
      "test_embedded_resource", "test_multiple_content_types", "test_tool_with_logging", "test_tool_with_progress",
      "test_error_handling", "test_sampling", "test_elicitation", "test_elicitation_sep1034_defaults",
      "test_elicitation_sep1330_enums", "json_schema_2020_12_tool", "test_reconnection", "greet",
      "test_streaming_progress",
      // the 2026-07-28 scenarios' tools, listed on both wires
      "test_missing_capability", "test_streaming_elicitation", "test_logging_tool", "test_trigger_tool_change",
      "test_trigger_prompt_change", "test_custom_header", "test_input_required_result_elicitation",
      "test_input_required_result_sampling", "test_input_required_result_list_roots",
      "test_input_required_result_request_state", "test_input_required_result_multiple_inputs",
      "test_input_required_result_multi_round", "test_input_required_result_tampered_state",
      "test_input_required_result_capabilities",
      // the tasks scenarios' task-supporting tools
      "slow_compute", "failing_job", "protocol_error_job", "confirm_delete", "multi_input", "test_tool_with_task");

  /** alpha.12's tools-name-format rule. */
  private static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z0-9_.\\-]{1,128}");

  @SessionRevisions
  void serverInitializeDeclaresWhatTheReferenceServerDeclares(String version, Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, ConformanceFixtures.create(vertx))
        .compose(client -> client.initialize(version, SuiteProfile.capabilities()).map(init -> {
          assertEquals(version, init.getString("protocolVersion"));
          JsonObject expected = new JsonObject("""
              {"tools": {"listChanged": true}, "resources": {"subscribe": true, "listChanged": true},
               "prompts": {"listChanged": true}, "logging": {}, "completions": {}}
              """);
          if (version.equals("2025-11-25")) {
            // Task-supporting tools are registered, so 2025-11-25 sessions are offered tasks.
            expected.put("tasks", new JsonObject("""
                {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}"""));
          }
          assertEquals(expected, init.getJsonObject("capabilities"));
          assertEquals(new JsonObject().put("name", "mcp-conformance-test-server").put("version", "1.0.0"),
              init.getJsonObject("serverInfo"));
          client.assertNoViolations();
          return client;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @SessionRevisions
  void loggingSetLevelAnswersAnEmptyObject(String version, Vertx vertx, VertxTestContext test) {
    SuiteProfile.connect(vertx, version)
        .compose(client -> client.call("logging/setLevel", new JsonObject().put("level", "info")).map(result -> {
          assertEquals(new JsonObject(), result);
          client.assertNoViolations();
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @SessionRevisions
  void pingAnswersAnEmptyObject(String version, Vertx vertx, VertxTestContext test) {
    SuiteProfile.connect(vertx, version)
        .compose(client -> client.call("ping", null).map(result -> {
          assertEquals(new JsonObject(), result);
          client.assertNoViolations();
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @SessionRevisions
  void completionCompleteAnswersAValuesArrayForArg1(String version, Vertx vertx, VertxTestContext test) {
    JsonObject params = new JsonObject("""
        {"ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"},
         "argument": {"name": "arg1", "value": "test"}}
        """);
    SuiteProfile.connect(vertx, version)
        .compose(client -> client.call("completion/complete", params).map(result -> {
          JsonObject completion = result.getJsonObject("completion");
          assertEquals(new JsonArray(), completion.getJsonArray("values"));
          assertEquals(0, completion.getInteger("total"));
          assertFalse(completion.getBoolean("hasMore", false));
          client.assertNoViolations();
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @SessionRevisions
  void toolsListDescribesEveryFixture(String version, Vertx vertx, VertxTestContext test) {
    SuiteProfile.connect(vertx, version)
        .compose(client -> client.call("tools/list", null).map(result -> {
          JsonArray tools = result.getJsonArray("tools");
          assertFalse(result.containsKey("nextCursor"));
          assertEquals(TOOLS, Set.copyOf(tools.stream().map(t -> ((JsonObject) t).getString("name")).toList()));
          for (Object item : tools) {
            JsonObject tool = (JsonObject) item;
            String name = tool.getString("name");
            assertTrue(TOOL_NAME.matcher(name).matches(), name);
            assertFalse(tool.getString("description", "").isEmpty(), name + " has no description");
            assertEquals("object", tool.getJsonObject("inputSchema").getString("type"), name);
          }
          client.assertNoViolations();
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void jsonSchema202012ToolKeepsEveryKeywordOfItsSchema(Vertx vertx, VertxTestContext test) {
    SuiteProfile.connect(vertx, LATEST)
        .compose(client -> client.call("tools/list", null).map(result -> {
          JsonObject tool = result.getJsonArray("tools").stream().map(JsonObject.class::cast)
              .filter(t -> t.getString("name").equals("json_schema_2020_12_tool")).findFirst().orElseThrow();
          JsonObject schema = tool.getJsonObject("inputSchema");
          assertEquals(ContentTools.jsonSchema2020(), schema);
          // 0.1.16's checks
          assertEquals("https://json-schema.org/draft/2020-12/schema", schema.getString("$schema"));
          assertTrue(schema.getJsonObject("$defs").containsKey("address"));
          assertEquals(false, schema.getValue("additionalProperties"));
          // alpha's SEP-2106 checks
          JsonArray allOf = schema.getJsonArray("allOf");
          assertFalse(allOf.isEmpty());
          assertTrue(allOf.stream().anyMatch(e -> ((JsonObject) e).getValue("anyOf") instanceof JsonArray));
          assertTrue(schema.containsKey("if") && schema.containsKey("then") && schema.containsKey("else"));
          assertEquals("addressDef", schema.getJsonObject("$defs").getJsonObject("address").getString("$anchor"));
          client.assertNoViolations();
          return client;
        }))
        .compose(client -> {
          JsonObject args = new JsonObject().put("name", "Ada").put("contactMethod", "email")
              .put("email", "ada@example.com")
              .put("address", new JsonObject().put("street", "1 Main St").put("city", "London"));
          return client.toolsCall("json_schema_2020_12_tool", args).map(result -> {
            assertEquals("JSON Schema 2020-12 tool called with: " + args.encode(), firstText(result));
            assertFalse(result.getBoolean("isError", false));
            return client;
          });
        })
        .compose(client -> client.toolsCall("json_schema_2020_12_tool",
            new JsonObject().put("contactMethod", "phone").put("email", "ada@example.com")).map(result -> {
              // if/then demands a phone: the schema is enforced, not just listed.
              assertEquals(true, result.getBoolean("isError"));
              client.assertNoViolations();
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  static String firstText(JsonObject toolResult) {
    JsonArray content = toolResult.getJsonArray("content");
    assertNotNull(content);
    JsonObject first = assertInstanceOf(JsonObject.class, content.getValue(0));
    return first.getString("text");
  }

  static List<JsonObject> objects(JsonArray array) {
    return array.stream().map(JsonObject.class::cast).toList();
  }
}
