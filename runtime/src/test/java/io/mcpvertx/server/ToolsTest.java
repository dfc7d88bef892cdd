package io.mcpvertx.server;

import static io.mcpvertx.server.McpTesting.assertError;
import static io.mcpvertx.server.McpTesting.assertNoViolations;
import static io.mcpvertx.server.McpTesting.firstContent;
import static io.mcpvertx.server.McpTesting.open;
import static io.mcpvertx.server.McpTesting.stringProperties;
import static io.mcpvertx.server.McpTesting.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.content.Icon;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolAnnotations;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** tools/list and tools/call: definitions per revision, argument checks, and how handler failures surface. */
@ExtendWith(VertxExtension.class)
class ToolsTest {

  private static final JsonObject OUTPUT = new JsonObject().put("type", "object")
      .put("properties", new JsonObject().put("n", new JsonObject().put("type", "integer")))
      .put("required", new JsonArray().add("n"));

  private static McpServer richTool(Vertx vertx) {
    return McpServer.create(vertx).tool(Tool.builder("rich").title("Rich tool").description("Has everything")
        .annotations(ToolAnnotations.readOnly()).icon(Icon.of("https://example.com/rich.png"))
        .outputSchema(OUTPUT).meta(new JsonObject().put("vendor", "x")).build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.structured(new JsonObject().put("n", 1))));
  }

  private static Future<JsonObject> listOnlyTool(Vertx vertx, String version, McpServer server,
      java.util.function.Consumer<JsonObject> check) {
    return open(vertx, server, version).compose(client -> client.call("tools/list", null).map(list -> {
      JsonArray tools = list.getJsonArray("tools");
      assertEquals(1, tools.size());
      check.accept(tools.getJsonObject(0));
      assertNoViolations(client);
      return list;
    }));
  }

  @Test
  void listsTitleIconsOutputSchemaAndMetaOn20251125(Vertx vertx, VertxTestContext test) {
    listOnlyTool(vertx, "2025-11-25", richTool(vertx), tool -> {
      assertEquals("Rich tool", tool.getString("title"));
      assertEquals("Has everything", tool.getString("description"));
      assertEquals(OUTPUT, tool.getJsonObject("outputSchema"));
      assertEquals("https://example.com/rich.png", tool.getJsonArray("icons").getJsonObject(0).getString("src"));
      assertEquals("x", tool.getJsonObject("_meta").getString("vendor"));
      assertTrue(tool.getJsonObject("annotations").getBoolean("readOnlyHint"));
      assertFalse(tool.getJsonObject("annotations").containsKey("title"));
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void leavesIconsOutOn20250618(Vertx vertx, VertxTestContext test) {
    listOnlyTool(vertx, "2025-06-18", richTool(vertx), tool -> {
      assertEquals("Rich tool", tool.getString("title"));
      assertEquals(OUTPUT, tool.getJsonObject("outputSchema"));
      assertFalse(tool.containsKey("icons"));
      assertTrue(tool.containsKey("_meta"));
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void movesTitleIntoAnnotationsOn20250326(Vertx vertx, VertxTestContext test) {
    listOnlyTool(vertx, "2025-03-26", richTool(vertx), tool -> {
      assertFalse(tool.containsKey("title"));
      assertEquals("Rich tool", tool.getJsonObject("annotations").getString("title"));
      assertTrue(tool.getJsonObject("annotations").getBoolean("readOnlyHint"));
      assertFalse(tool.containsKey("outputSchema"));
      assertFalse(tool.containsKey("icons"));
      assertFalse(tool.containsKey("_meta"));
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void keepsAnExplicitAnnotationTitleOn20250326(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).tool(Tool.builder("t").title("Outer")
        .annotations(new ToolAnnotations("Inner", null, null, null, null)).build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text("")));
    listOnlyTool(vertx, "2025-03-26", server,
        tool -> assertEquals("Inner", tool.getJsonObject("annotations").getString("title")))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void listsOnlyNameDescriptionAndSchemaOn20241105(Vertx vertx, VertxTestContext test) {
    listOnlyTool(vertx, "2024-11-05", richTool(vertx), tool -> {
      assertEquals(java.util.Set.of("name", "description", "inputSchema"), tool.fieldNames());
      assertEquals("object", tool.getJsonObject("inputSchema").getString("type"));
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void callsToolWithItsArguments(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).tool(Tool.builder("greet").inputSchema(stringProperties("who"))
        .build(), (args, ctx) -> Future.succeededFuture(ToolResult.text("Hello, " + args.getString("who"))));
    open(vertx, server, "2025-11-25").compose(client -> client.call("tools/call",
        toolCall("greet", new JsonObject().put("who", "Ada"))).map(result -> {
          assertEquals(new JsonObject().put("type", "text").put("text", "Hello, Ada"), firstContent(result));
          assertFalse(result.containsKey("isError"));
          assertNoViolations(client);
          return result;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void callsToolWithoutArgumentsAsAnEmptyObject(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).tool(Tool.builder("noargs").build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text("args=" + args.encode())));
    open(vertx, server, "2025-06-18").compose(client -> client.call("tools/call", toolCall("noargs", null))
        .map(result -> {
          assertEquals("args={}", firstContent(result).getString("text"));
          assertNoViolations(client);
          return result;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void returnsToolErrorsAsResultsWithIsError(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).tool(Tool.builder("fails").build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.error("disk full")));
    open(vertx, server, "2025-11-25").compose(client -> client.call("tools/call", toolCall("fails", null))
        .map(result -> {
          assertEquals(true, result.getBoolean("isError"));
          assertEquals("disk full", firstContent(result).getString("text"));
          assertNoViolations(client);
          return result;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsUnknownToolWithInvalidParams(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).tool(Tool.builder("known").build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text("")));
    open(vertx, server, "2025-11-25").compose(client -> client.request("tools/call", toolCall("unknown", null))
        .map(response -> {
          assertTrue(assertError(response, -32602).getString("message").contains("unknown"));
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"[1,2]", "\"text\"", "42"})
  void rejectsArgumentsThatAreNotAnObject(String arguments, Vertx vertx, VertxTestContext test) {
    AtomicInteger calls = new AtomicInteger();
    McpServer server = McpServer.create(vertx).tool(Tool.builder("t").build(), (args, ctx) -> {
      calls.incrementAndGet();
      return Future.succeededFuture(ToolResult.text(""));
    });
    JsonObject params = new JsonObject().put("name", "t")
        .put("arguments", io.vertx.core.json.Json.decodeValue(arguments));
    open(vertx, server, "2025-11-25").compose(client -> client.request("tools/call", params).map(response -> {
      assertError(response, -32602);
      assertEquals(0, calls.get());
      assertNoViolations(client);
      return response;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void reportsInvalidArgumentsAsToolErrorOn20251125(Vertx vertx, VertxTestContext test) {
    AtomicInteger calls = new AtomicInteger();
    McpServer server = McpServer.create(vertx).tool(Tool.builder("greet").inputSchema(stringProperties("who"))
        .build(), (args, ctx) -> {
          calls.incrementAndGet();
          return Future.succeededFuture(ToolResult.text(""));
        });
    open(vertx, server, "2025-11-25").compose(client -> client.call("tools/call",
        toolCall("greet", new JsonObject().put("who", 7))).map(result -> {
          assertEquals(true, result.getBoolean("isError"));
          assertTrue(firstContent(result).getString("text").contains("greet"));
          assertEquals(0, calls.get());
          assertNoViolations(client);
          return result;
        })).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-06-18", "2025-03-26"})
  void rejectsInvalidArgumentsWithInvalidParamsBefore20251125(String version, Vertx vertx, VertxTestContext test) {
    AtomicInteger calls = new AtomicInteger();
    McpServer server = McpServer.create(vertx).tool(Tool.builder("greet").inputSchema(stringProperties("who"))
        .build(), (args, ctx) -> {
          calls.incrementAndGet();
          return Future.succeededFuture(ToolResult.text(""));
        });
    open(vertx, server, version).compose(client -> client.request("tools/call",
        toolCall("greet", new JsonObject())).map(response -> {
          JsonObject error = assertError(response, -32602);
          assertFalse(error.getJsonObject("data").getJsonArray("errors").isEmpty());
          assertEquals(0, calls.get());
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void keepsTheCodeMessageAndDataOfAThrownMcpException(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).tool(Tool.builder("t").build(), (args, ctx) -> {
      throw new McpException(-32050, "Quota exceeded", new JsonObject().put("retryAfter", 5));
    });
    open(vertx, server, "2025-11-25").compose(client -> client.request("tools/call", toolCall("t", null))
        .map(response -> {
          JsonObject error = assertError(response, -32050);
          assertEquals("Quota exceeded", error.getString("message"));
          assertEquals(5, error.getJsonObject("data").getInteger("retryAfter"));
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void keepsTheCodeOfAFutureFailedWithMcpException(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).tool(Tool.builder("t").build(),
        (args, ctx) -> Future.failedFuture(McpException.invalidParams("date must be in the future")));
    open(vertx, server, "2025-11-25").compose(client -> client.request("tools/call", toolCall("t", null))
        .map(response -> {
          assertEquals("date must be in the future", assertError(response, -32602).getString("message"));
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void hidesTheMessageOfAnUnexpectedException(boolean thrown, Vertx vertx, VertxTestContext test) {
    RuntimeException secret = new IllegalStateException("password=hunter2");
    McpServer server = McpServer.create(vertx).tool(Tool.builder("t").build(), (args, ctx) -> {
      if (thrown) {
        throw secret;
      }
      return Future.failedFuture(secret);
    });
    open(vertx, server, "2025-11-25").compose(client -> client.request("tools/call", toolCall("t", null))
        .map(response -> {
          JsonObject error = assertError(response, -32603);
          assertFalse(error.encode().contains("hunter2"), error.encode());
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void answersInternalErrorWhenTheHandlerReturnsNull(boolean nullFuture, Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).tool(Tool.builder("t").build(),
        (args, ctx) -> nullFuture ? null : Future.succeededFuture(null));
    open(vertx, server, "2025-11-25").compose(client -> client.request("tools/call", toolCall("t", null))
        .map(response -> {
          assertError(response, -32603);
          assertNull(response.getValue("result"));
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }
}
