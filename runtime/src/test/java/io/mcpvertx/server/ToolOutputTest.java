package io.mcpvertx.server;

import static io.mcpvertx.server.McpTesting.assertError;
import static io.mcpvertx.server.McpTesting.assertNoViolations;
import static io.mcpvertx.server.McpTesting.firstContent;
import static io.mcpvertx.server.McpTesting.open;
import static io.mcpvertx.server.McpTesting.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.content.Content;
import io.mcpvertx.server.content.ResourceContents;
import io.mcpvertx.server.content.ResourceLink;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a tool result looks like on the wire: structured output and content blocks, per revision. */
@ExtendWith(VertxExtension.class)
class ToolOutputTest {

  private static final JsonObject OUTPUT = new JsonObject().put("type", "object")
      .put("properties", new JsonObject().put("temperature", new JsonObject().put("type", "number")))
      .put("required", new JsonArray().add("temperature"));

  private static McpServer weather(Vertx vertx, ToolResult result) {
    return McpServer.create(vertx).tool(Tool.builder("weather").outputSchema(OUTPUT).build(),
        (args, ctx) -> Future.succeededFuture(result));
  }

  private static Future<JsonObject> call(Vertx vertx, McpServer server, String version, String tool) {
    return open(vertx, server, version).compose(client -> client.request("tools/call", toolCall(tool, null))
        .map(response -> {
          assertNoViolations(client);
          return response;
        }));
  }

  @Test
  void sendsStructuredContentThatMatchesTheOutputSchemaWithItsText(Vertx vertx, VertxTestContext test) {
    JsonObject data = new JsonObject().put("temperature", 21.5);
    call(vertx, weather(vertx, ToolResult.structured(data)), "2025-06-18", "weather").map(response -> {
      JsonObject result = response.getJsonObject("result");
      assertEquals(data, result.getJsonObject("structuredContent"));
      assertEquals(data, new JsonObject(firstContent(result).getString("text")));
      return response;
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void failsWithInternalErrorWhenStructuredContentViolatesTheOutputSchema(Vertx vertx, VertxTestContext test) {
    ToolResult wrong = ToolResult.structured(new JsonObject().put("temperature", "warm"));
    call(vertx, weather(vertx, wrong), "2025-11-25", "weather").map(response -> {
      JsonObject error = assertError(response, -32603);
      assertFalse(error.getJsonObject("data").getJsonArray("errors").isEmpty());
      return response;
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void failsWithInternalErrorWhenAnOutputSchemaToolReturnsNoStructuredContent(Vertx vertx, VertxTestContext test) {
    call(vertx, weather(vertx, ToolResult.text("21.5")), "2025-11-25", "weather")
        .map(response -> assertError(response, -32603))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void letsAnErrorResultSkipTheOutputSchema(Vertx vertx, VertxTestContext test) {
    call(vertx, weather(vertx, ToolResult.error("station offline")), "2025-11-25", "weather").map(response -> {
      JsonObject result = response.getJsonObject("result");
      assertEquals(true, result.getBoolean("isError"));
      assertFalse(result.containsKey("structuredContent"));
      return response;
    }).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-03-26", "2024-11-05"})
  void leavesStructuredContentOutBefore20250618(String version, Vertx vertx, VertxTestContext test) {
    JsonObject data = new JsonObject().put("temperature", 3);
    call(vertx, weather(vertx, ToolResult.structured(data)), version, "weather").map(response -> {
      JsonObject result = response.getJsonObject("result");
      assertFalse(result.containsKey("structuredContent"));
      assertEquals(1, result.getJsonArray("content").size());
      assertEquals(data, new JsonObject(firstContent(result).getString("text")));
      return response;
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void turnsStructuredContentWithoutBlocksIntoTextBefore20250618(Vertx vertx, VertxTestContext test) {
    JsonObject data = new JsonObject().put("temperature", 3);
    ToolResult bare = new ToolResult(List.of(), data, false, null);
    call(vertx, weather(vertx, bare), "2025-03-26", "weather").map(response -> {
      JsonObject result = response.getJsonObject("result");
      assertFalse(result.containsKey("structuredContent"));
      assertEquals(data, new JsonObject(firstContent(result).getString("text")));
      return response;
    }).onComplete(test.succeedingThenComplete());
  }

  private static McpServer contentTool(Vertx vertx, Content content) {
    return McpServer.create(vertx).tool(Tool.builder("content").build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.of(content)));
  }

  @Test
  void sendsAudioFrom20250326(Vertx vertx, VertxTestContext test) {
    call(vertx, contentTool(vertx, Content.audio("UklGRg==", "audio/wav")), "2025-03-26", "content").map(response -> {
      assertEquals(new JsonObject().put("type", "audio").put("data", "UklGRg==").put("mimeType", "audio/wav"),
          firstContent(response.getJsonObject("result")));
      return response;
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void degradesAudioToTextOn20241105(Vertx vertx, VertxTestContext test) {
    call(vertx, contentTool(vertx, Content.audio("UklGRg==", "audio/wav")), "2024-11-05", "content").map(response -> {
      JsonObject block = firstContent(response.getJsonObject("result"));
      assertEquals("text", block.getString("type"));
      assertTrue(block.getString("text").contains("audio/wav"));
      assertFalse(block.containsKey("data"));
      return response;
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void sendsResourceLinksFrom20250618(Vertx vertx, VertxTestContext test) {
    ResourceLink link = ResourceLink.of("file:///report.pdf", "report");
    call(vertx, contentTool(vertx, link), "2025-06-18", "content").map(response -> {
      JsonObject block = firstContent(response.getJsonObject("result"));
      assertEquals("resource_link", block.getString("type"));
      assertEquals("file:///report.pdf", block.getString("uri"));
      assertEquals("report", block.getString("name"));
      return response;
    }).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-03-26", "2024-11-05"})
  void degradesResourceLinksToTextBefore20250618(String version, Vertx vertx, VertxTestContext test) {
    ResourceLink link = ResourceLink.of("file:///report.pdf", "report");
    call(vertx, contentTool(vertx, link), version, "content").map(response -> {
      JsonObject block = firstContent(response.getJsonObject("result"));
      assertEquals("text", block.getString("type"));
      assertTrue(block.getString("text").contains("file:///report.pdf"));
      return response;
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void sendsImagesAndEmbeddedResources(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).tool(Tool.builder("mixed").build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.of(Content.image("iVBORw0=", "image/png"),
            Content.resource(ResourceContents.text("file:///a.txt", "text/plain", "hello")))));
    call(vertx, server, "2025-11-25", "mixed").map(response -> {
      JsonArray content = response.getJsonObject("result").getJsonArray("content");
      assertEquals("image", content.getJsonObject(0).getString("type"));
      assertEquals("image/png", content.getJsonObject(0).getString("mimeType"));
      JsonObject embedded = content.getJsonObject(1);
      assertEquals("resource", embedded.getString("type"));
      assertEquals("hello", embedded.getJsonObject("resource").getString("text"));
      return response;
    }).onComplete(test.succeedingThenComplete());
  }
}
