package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.StatelessOptions;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptMessage;
import io.mcpvertx.server.prompts.PromptResult;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceResult;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolExecution;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.mcpvertx.testing.StatelessTestClient.META_CAPABILITIES;
import static io.mcpvertx.testing.StatelessTestClient.META_VERSION;
import static io.mcpvertx.testing.StatelessTestClient.VERSION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a 2026-07-28 POST must carry, checked in the order the spec's errors imply: the version header
 * (-32020), {@code _meta} (-32602), header against {@code _meta} (-32020), the version itself (-32022), then the
 * routing headers {@code Mcp-Method}, {@code Mcp-Name} and {@code Mcp-Param-*} (-32020). All with HTTP 400.
 */
@ExtendWith(VertxExtension.class)
class StatelessHeadersTest {

  private static final int HEADER_MISMATCH = -32020;
  private static final int INVALID_PARAMS = -32602;
  private static final int UNSUPPORTED_VERSION = -32022;

  private Vertx vertx;
  private StatelessTestClient client;

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    client = StatelessTestClient.over(vertx, new HeaderCheckingTransport(server(vertx)));
  }

  static final String DOC = "test://doc";
  static final JsonObject WITH_TASKS = StatelessTestClient.ALL_CAPABILITIES.copy()
      .put("extensions", new JsonObject().put("io.modelcontextprotocol/tasks", new JsonObject()));

  /** The tools, prompt and resource the checks are made against; {@code held_now} runs as a task until the end. */
  static McpServer server(Vertx vertx) {
    McpServer server = McpServer.create(vertx, new McpServerOptions().setStatelessOptions(new StatelessOptions()
        .setRequestStateKeys(List.of("0123456789abcdef0123456789abcdef-test-key"))));
    server.tool(Tool.builder("echo").description("Echoes text")
            .inputSchema(new JsonObject("""
                {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
                """)).build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text(args.getString("text"))));
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
    server.tool(Tool.builder("held_now").description("Runs as a task until the test ends")
            .execution(ToolExecution.task(TaskSupport.OPTIONAL)).build(),
        (args, ctx) -> Promise.<ToolResult>promise().future());
    server.prompt(Prompt.of("context_prompt", "A prompt"),
        (args, ctx) -> Future.succeededFuture(PromptResult.of(PromptMessage.user("hello"))));
    server.resource(Resource.of(DOC, "doc", "text/plain").withDescription("A document"),
        (uri, ctx) -> Future.succeededFuture(ResourceResult.text(uri, "text/plain", "the document")));
    return server;
  }

  static JsonObject call(String tool, JsonObject arguments) {
    JsonObject params = new JsonObject().put("name", tool);
    if (arguments != null) {
      params.put("arguments", arguments);
    }
    return params;
  }

  private static String base64(String value) {
    return "=?base64?" + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) + "?=";
  }

  private static JsonObject metaWithout(String member) {
    JsonObject meta = StatelessTestClient.meta(StatelessTestClient.ALL_CAPABILITIES);
    meta.remove(member);
    return meta;
  }

  @Test
  void theVersionHeaderComesFirst(VertxTestContext test) {
    // No header and no _meta: the header is reported, as it is checked first.
    client.request("server/discover").meta(null).withoutHeader("MCP-Protocol-Version").send()
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .compose(v -> client.request("tools/list").withoutHeader("mcp-protocol-version").send())
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void metaMustNameTheVersionAndTheCapabilities(VertxTestContext test) {
    client.request("server/discover").meta(null).send()
        .map(x -> x.assertError(INVALID_PARAMS, 400))
        .compose(v -> client.request("server/discover").meta(metaWithout(META_VERSION)).send())
        .map(x -> x.assertError(INVALID_PARAMS, 400))
        .compose(v -> client.request("server/discover").meta(metaWithout(META_CAPABILITIES)).send())
        .map(x -> x.assertError(INVALID_PARAMS, 400))
        .compose(v -> client.request("server/discover").capabilities(null).send())
        .map(x -> x.assertError(INVALID_PARAMS, 400))
        .compose(v -> client.request("tools/list").meta(StatelessTestClient.meta(new JsonObject())
            .put(StatelessTestClient.META_CAPABILITIES, "sampling")).send())
        .map(x -> x.assertError(INVALID_PARAMS, 400))
        .compose(v -> client.request("tools/list").meta(StatelessTestClient.meta(new JsonObject())
            .put("io.modelcontextprotocol/logLevel", "loud")).send())
        .map(x -> x.assertError(INVALID_PARAMS, 400))
        // clientInfo is optional
        .compose(v -> client.request("server/discover").meta(metaWithout("io.modelcontextprotocol/clientInfo"))
            .send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          x.complete();
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aHeaderThatDisagreesWithMetaIsAMismatchBeforeTheVersionIsJudged(VertxTestContext test) {
    JsonObject meta = StatelessTestClient.meta(new JsonObject()).put(META_VERSION, "v999.0.0");
    client.request("server/discover").meta(meta.copy()).header("MCP-Protocol-Version", VERSION).send()
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .compose(v -> client.request("server/discover").meta(meta.copy()).header("MCP-Protocol-Version",
            "v999.0.0").send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          JsonObject error = x.assertError(UNSUPPORTED_VERSION, 400);
          assertEquals("v999.0.0", error.getJsonObject("data").getString("requested"));
          JsonArray supported = error.getJsonObject("data").getJsonArray("supported");
          assertTrue(supported.contains(VERSION), supported::encode);
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void theSupportedVersionsAreTheOnesDiscoverLists(VertxTestContext test) {
    client.request("server/discover").send().compose(discover -> client.request("tools/list")
            .meta(StatelessTestClient.meta(new JsonObject()).put(META_VERSION, "2030-01-01"))
            .header("MCP-Protocol-Version", "2030-01-01").send()
            .map(x -> {
              assertEquals(discover.complete().getJsonArray("supportedVersions"),
                  x.assertError(UNSUPPORTED_VERSION, 400).getJsonObject("data").getJsonArray("supported"));
              return x;
            }))
        .onComplete(test.succeeding(x -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aSessionRevisionIsNotServedStatelessly(VertxTestContext test) {
    client.request("tools/list").meta(StatelessTestClient.meta(new JsonObject()).put(META_VERSION, "2025-11-25"))
        .send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          JsonObject error = x.assertError(UNSUPPORTED_VERSION, 400);
          assertEquals("2025-11-25", error.getJsonObject("data").getString("requested"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void theVersionIsJudgedBeforeTheRoutingHeaders(VertxTestContext test) {
    client.request("tools/list").meta(StatelessTestClient.meta(new JsonObject()).put(META_VERSION, "v2"))
        .header("MCP-Protocol-Version", "v2").header("Mcp-Method", "prompts/list").send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          x.assertError(UNSUPPORTED_VERSION, 400);
          test.completeNow();
        })));
  }

  @Test
  void mcpMethodMustMatchTheBodyExactly(VertxTestContext test) {
    client.request("tools/list").withoutHeader("Mcp-Method").send()
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .compose(v -> client.request("tools/list").header("Mcp-Method", "prompts/list").send())
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        // values are case-sensitive
        .compose(v -> client.request("tools/list").header("Mcp-Method", "TOOLS/LIST").send())
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        // optional whitespace around a value is not part of it
        .compose(v -> client.request("tools/list").header("Mcp-Method", " \ttools/list  ").send())
        .map(x -> x.complete())
        // names are case-insensitive (the lookup is, as HTTP's is)
        .compose(v -> client.request("tools/list").withoutHeader("mcp-method").header("MCP-METHOD", "tools/list")
            .send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          x.complete();
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void mcpNameMustMatchTheToolPromptOrResource(VertxTestContext test) {
    JsonObject echo = call("echo", new JsonObject().put("text", "x"));
    client.request("tools/call", echo).withoutHeader("Mcp-Name").send()
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .compose(v -> client.request("tools/call", echo).header("Mcp-Name", "wrong_tool").send())
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .compose(v -> client.request("tools/call", echo).header("Mcp-Name", "ECHO").send())
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .compose(v -> client.request("tools/call", echo).header("mcp-name", "  echo  ").send())
        .map(x -> x.complete())
        .compose(v -> client.request("tools/call", echo).header("Mcp-Name", base64("echo")).send())
        .map(x -> x.complete())
        .compose(v -> client.request("tools/call", echo).header("Mcp-Name", "=?base64?ZWNobw?=").send())
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .compose(v -> client.request("prompts/get", new JsonObject().put("name", "context_prompt"))
            .header("Mcp-Name", "other_prompt").send())
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .compose(v -> client.request("resources/read", new JsonObject().put("uri", DOC))
            .header("Mcp-Name", "test://other").send())
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .compose(v -> client.request("resources/read", new JsonObject().put("uri", DOC))
            .header("Mcp-Name", base64(DOC)).send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          x.complete();
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void mcpParamHeadersMirrorTheMarkedArguments(VertxTestContext test) {
    JsonObject west = call("regional", new JsonObject().put("region", "us-west1"));
    client.request("tools/call", west).header("Mcp-Param-Region", "us-west1").send()
        .map(x -> x.complete())
        // header names are case-insensitive
        .compose(v -> client.request("tools/call", west).header("mcp-param-region", "us-west1").send())
        .map(x -> x.complete())
        .compose(v -> client.request("tools/call", west).send())
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .compose(v -> client.request("tools/call", west).header("Mcp-Param-Region", "eu-west1").send())
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .compose(v -> client.request("tools/call", west).header("Mcp-Param-Region", base64("us-west1")).send())
        .map(x -> x.complete())
        // bad padding, bad characters: not base64, so rejected rather than taken literally
        .compose(v -> client.request("tools/call", west).header("Mcp-Param-Region", "=?base64?dXMtd2VzdDE?=")
            .send())
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .compose(v -> client.request("tools/call", west).header("Mcp-Param-Region", "=?base64?dXMt!!!dDE=?=")
            .send())
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        // without both markers the value is literal
        .compose(v -> client.request("tools/call", call("regional", new JsonObject().put("region",
            "=?base64?abc"))).header("Mcp-Param-Region", "=?base64?abc").send())
        .map(x -> x.complete())
        // a value that is not header-safe travels encoded
        .compose(v -> client.request("tools/call", call("regional", new JsonObject().put("region", " Zürich ")))
            .header("Mcp-Param-Region", base64(" Zürich ")).send())
        .map(x -> x.complete())
        // an argument left out needs no header, and a header without its argument does not match the body
        .compose(v -> client.request("tools/call", west).header("Mcp-Param-Region", "us-west1")
            .header("Mcp-Param-Count", "3").send())
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        // integers and booleans in their string form
        .compose(v -> client.request("tools/call", call("regional", new JsonObject().put("region", "r")
            .put("count", 42).put("dry", true))).header("Mcp-Param-Region", "r").header("Mcp-Param-Count", "42")
            .header("Mcp-Param-Dry-Run", "true").send())
        .map(x -> x.complete())
        .compose(v -> client.request("tools/call", call("regional", new JsonObject().put("region", "r")
            .put("count", 42))).header("Mcp-Param-Region", "r").header("Mcp-Param-Count", "43").send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          x.assertError(HEADER_MISMATCH, 400);
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void headerValuesMayOnlyCarryVisibleAsciiSpaceAndTab(VertxTestContext test) {
    // A header can only carry "Zürich" base64-encoded; raw, its bytes are not a valid header value.
    JsonObject zurich = call("regional", new JsonObject().put("region", "Zürich"));
    client.request("tools/call", zurich).header("Mcp-Param-Region", "Zürich").send()
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .compose(v -> client.request("tools/call", zurich).header("Mcp-Param-Region", base64("Zürich")).send())
        .map(x -> x.complete())
        .compose(v -> client.request("tools/call", call("regional", new JsonObject().put("region", "a\u0001b")))
            .header("Mcp-Param-Region", "a\u0001b").send())
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .compose(v -> client.request("tools/call", call("regional", new JsonObject().put("region", "a\tb")))
            .header("Mcp-Param-Region", "a\tb").send())
        .map(x -> x.complete())
        .compose(v -> client.request("tools/call", call("échos", null)).header("Mcp-Name", "échos").send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          x.assertError(HEADER_MISMATCH, 400);
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void integerParametersCompareAsNumbers(VertxTestContext test) {
    JsonObject params = call("regional", new JsonObject().put("region", "r").put("count", 42));
    client.request("tools/call", params).header("Mcp-Param-Region", "r").header("Mcp-Param-Count", "42.0").send()
        .map(x -> x.complete())
        .compose(v -> client.request("tools/call", params).header("Mcp-Param-Region", "r")
            .header("Mcp-Param-Count", "forty-two").send())
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .compose(v -> client.request("tools/call", call("regional", new JsonObject().put("region", "r")
            .put("dry", false))).header("Mcp-Param-Region", "r").header("Mcp-Param-Dry-Run", "False").send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          // booleans travel as lowercase true or false
          x.assertError(HEADER_MISMATCH, 400);
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void nestedPropertiesReachableThroughPropertiesAreMirroredToo(VertxTestContext test) {
    client = StatelessTestClient.over(vertx,
        new HeaderCheckingTransport(server(vertx).tool(Tool.builder("nested")
                .inputSchema(new JsonObject("""
                    {"type": "object",
                     "properties": {
                       "target": {"type": "object",
                                  "properties": {"zone": {"type": "string", "x-mcp-header": "Zone"}}}}}
                    """)).build(),
            (args, ctx) -> Future.succeededFuture(ToolResult.text("ok")))));
    JsonObject params = call("nested", new JsonObject().put("target", new JsonObject().put("zone", "z1")));
    client.request("tools/call", params).send()
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .compose(v -> client.request("tools/call", params).header("Mcp-Param-Zone", "z2").send())
        .map(x -> x.assertError(HEADER_MISMATCH, 400))
        .compose(v -> client.request("tools/call", params).header("Mcp-Param-Zone", "z1").send())
        .map(x -> x.complete())
        // no value at that path: no header expected
        .compose(v -> client.request("tools/call", call("nested", new JsonObject().put("target",
            new JsonObject()))).send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          x.complete();
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void everyRejectionEchoesTheRequestId(VertxTestContext test) {
    client.request("tools/list").id(JsonRpcId.of("text-id")).withoutHeader("Mcp-Method").send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          assertEquals("text-id", x.response().getString("id"));
          assertFalse(x.response().containsKey("result"));
          test.completeNow();
        })));
  }

  @Test
  void listenIsValidatedLikeAnyRequest(VertxTestContext test) {
    client.request("subscriptions/listen", new JsonObject().put("notifications", new JsonObject()))
        .header("Mcp-Method", "tools/list").send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          x.assertError(-32020, 400);
          test.completeNow();
        })));
  }

  @Test
  void theMcpNameHeaderMustBeTheTaskId(VertxTestContext test) {
    client.request("tools/call", call("held_now", null)).capabilities(WITH_TASKS.copy()).send().compose(x -> {
      String taskId = x.task().getString("taskId");
      JsonObject params = new JsonObject().put("taskId", taskId);
      return client.request("tasks/get", params).capabilities(WITH_TASKS.copy()).header("Mcp-Name", "other")
          .send().compose(wrong -> {
            wrong.assertError(-32020, 400);
            return client.request("tasks/cancel", params).capabilities(WITH_TASKS.copy())
                .withoutHeader("Mcp-Name").send();
          }).compose(missing -> {
            missing.assertError(-32020, 400);
            return client.request("tasks/get", params).capabilities(WITH_TASKS.copy())
                .header("Mcp-Name", base64(taskId)).send();
          });
    }).onComplete(test.succeeding(x -> test.verify(() -> {
      assertEquals("working", x.complete().getString("status"));
      client.assertNoViolations();
      test.completeNow();
    })));
  }
}
