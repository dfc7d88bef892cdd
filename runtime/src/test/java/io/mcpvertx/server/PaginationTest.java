package io.mcpvertx.server;

import static io.mcpvertx.server.McpTesting.assertError;
import static io.mcpvertx.server.McpTesting.assertNoViolations;
import static io.mcpvertx.server.McpTesting.open;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptResult;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceResult;
import io.mcpvertx.server.resources.ResourceTemplate;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Cursor pagination of every list method, with two items per page. */
@ExtendWith(VertxExtension.class)
class PaginationTest {

  private static McpServer server(Vertx vertx, int count) {
    McpServer server = McpServer.create(vertx, new McpServerOptions().setPageSize(2));
    for (int i = 0; i < count; i++) {
      server.tool(Tool.builder("tool" + i).build(), (args, ctx) -> Future.succeededFuture(ToolResult.text("")))
          .resource(Resource.of("mem://r" + i, "resource" + i, null),
              (uri, ctx) -> Future.succeededFuture(ResourceResult.text(uri, null, "")))
          .resourceTemplate(ResourceTemplate.of("mem://t" + i + "/{x}", "template" + i, null),
              (uri, vars, ctx) -> Future.succeededFuture(ResourceResult.text(uri, null, "")))
          .prompt(Prompt.of("prompt" + i, null), (args, ctx) -> Future.succeededFuture(PromptResult.of()));
    }
    return server;
  }

  /** One list walked to its end: the names on each page, and every cursor seen. */
  private record Walk(List<List<String>> pages, List<String> cursors) {
  }

  private static Future<Walk> walk(McpTestClient client, String method, String member, String key) {
    return walk(client, method, member, key, null, new Walk(new ArrayList<>(), new ArrayList<>()));
  }

  private static Future<Walk> walk(McpTestClient client, String method, String member, String key, String cursor,
      Walk walk) {
    JsonObject params = cursor == null ? null : new JsonObject().put("cursor", cursor);
    return client.call(method, params).compose(page -> {
      List<String> names = new ArrayList<>();
      page.getJsonArray(member).forEach(item -> names.add(((JsonObject) item).getString(key)));
      walk.pages().add(names);
      String next = page.getString("nextCursor");
      if (next == null) {
        return Future.succeededFuture(walk);
      }
      assertTrue(walk.pages().size() < 10, "pagination does not end");
      walk.cursors().add(next);
      return walk(client, method, member, key, next, walk);
    });
  }

  @ParameterizedTest
  @CsvSource({"tools/list,tools,name,tool", "resources/list,resources,name,resource",
      "resources/templates/list,resourceTemplates,name,template", "prompts/list,prompts,name,prompt"})
  void walksEveryPageInRegistrationOrder(String method, String member, String key, String prefix, Vertx vertx,
      VertxTestContext test) {
    open(vertx, server(vertx, 5), "2025-11-25").compose(client -> walk(client, method, member, key).map(walk -> {
      assertEquals(List.of(List.of(prefix + 0, prefix + 1), List.of(prefix + 2, prefix + 3), List.of(prefix + 4)),
          walk.pages());
      assertNoViolations(client);
      return walk;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void endsWithoutACursorWhenTheLastPageIsFull(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx, 4), "2025-11-25").compose(client -> walk(client, "tools/list", "tools", "name")
        .map(walk -> {
          assertEquals(2, walk.pages().size());
          assertEquals(List.of("tool2", "tool3"), walk.pages().get(1));
          assertNoViolations(client);
          return walk;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void sendsNoCursorWhenEverythingFitsOnePage(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx, 2), "2025-11-25").compose(client -> client.call("prompts/list", null).map(page -> {
      assertEquals(2, page.getJsonArray("prompts").size());
      assertFalse(page.containsKey("nextCursor"));
      assertNoViolations(client);
      return page;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void issuesCursorsThatAreNotPlainOffsets(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx, 7), "2025-11-25").compose(client -> walk(client, "tools/list", "tools", "name")
        .map(walk -> {
          assertEquals(3, walk.cursors().size());
          for (String cursor : walk.cursors()) {
            assertFalse(cursor.isEmpty());
            assertFalse(cursor.matches("\\d+"), cursor);
          }
          assertEquals(3, new java.util.HashSet<>(walk.cursors()).size());
          assertNoViolations(client);
          return walk;
        })).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @CsvSource({"tools/list,not-a-cursor", "resources/list,2", "prompts/list,''", "resources/templates/list,%%%"})
  void rejectsACursorItDidNotIssue(String method, String cursor, Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx, 5), "2025-11-25").compose(client -> client.request(method,
        new JsonObject().put("cursor", cursor)).map(response -> {
          assertError(response, -32602);
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsACursorThatIsNotAString(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx, 5), "2025-11-25").compose(client -> client.request("tools/list",
        new JsonObject().put("cursor", 2)).map(response -> {
          assertError(response, -32602);
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }
}
