package io.mcpvertx.server;

import static io.mcpvertx.server.McpTesting.assertError;
import static io.mcpvertx.server.McpTesting.assertNoViolations;
import static io.mcpvertx.server.McpTesting.open;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** notifications/message and logging/setLevel. */
@ExtendWith(VertxExtension.class)
class LoggingTest {

  /** A tool that logs one message at every level, lowest first. */
  private static McpServer server(Vertx vertx) {
    return McpServer.create(vertx).tool(Tool.builder("chatty").build(), (args, ctx) -> {
      for (LoggingLevel level : LoggingLevel.values()) {
        ctx.log(level, "db", new JsonObject().put("level", level.wireName()));
      }
      return Future.succeededFuture(ToolResult.text("done"));
    });
  }

  private static Future<List<String>> levelsLogged(McpTestClient client) {
    int before = client.notifications("notifications/message").size();
    return client.call("tools/call", new JsonObject().put("name", "chatty")).map(result -> {
      List<JsonObject> messages = client.notifications("notifications/message");
      return messages.subList(before, messages.size()).stream()
          .map(n -> n.getJsonObject("params").getString("level")).toList();
    });
  }

  private static JsonObject level(Object level) {
    return new JsonObject().put("level", level);
  }

  @Test
  void advertisesLogging(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, server(vertx)).compose(client -> client.initialize("2025-11-25").map(init -> {
      assertEquals(new JsonObject(), init.getJsonObject("capabilities").getJsonObject("logging"));
      assertNoViolations(client);
      return init;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void sendsEveryLevelUntilTheClientSetsOne(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-11-25").compose(client -> levelsLogged(client).map(levels -> {
      assertEquals(List.of("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"), levels);
      JsonObject first = client.notifications("notifications/message").get(0).getJsonObject("params");
      assertEquals(new JsonObject().put("level", "debug").put("logger", "db")
          .put("data", new JsonObject().put("level", "debug")), first);
      assertEquals(Optional.empty(), client.session().logLevel());
      assertNoViolations(client);
      return levels;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void sendsOnlyMessagesAtOrAboveTheLevelSet(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-06-18").compose(client -> client.call("logging/setLevel", level("warning"))
        .compose(ok -> {
          assertEquals(new JsonObject(), ok);
          return levelsLogged(client);
        }).map(levels -> {
          assertEquals(List.of("warning", "error", "critical", "alert", "emergency"), levels);
          assertEquals(Optional.of(LoggingLevel.WARNING), client.session().logLevel());
          assertNoViolations(client);
          return levels;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void appliesANewLevelToLaterMessages(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-03-26").compose(client -> client.call("logging/setLevel", level("emergency"))
        .compose(ok -> levelsLogged(client))
        .compose(levels -> {
          assertEquals(List.of("emergency"), levels);
          return client.call("logging/setLevel", level("debug"));
        }).compose(ok -> levelsLogged(client))
        .map(levels -> {
          assertEquals(8, levels.size());
          assertNoViolations(client);
          return levels;
        })).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"verbose\"", "\"WARNING\"", "3", "null"})
  void rejectsAnUnknownLevelAndKeepsTheOldOne(String bad, Vertx vertx, VertxTestContext test) {
    JsonObject params = new JsonObject().put("level", io.vertx.core.json.Json.decodeValue(bad));
    open(vertx, server(vertx), "2025-11-25").compose(client -> client.call("logging/setLevel", level("error"))
        .compose(ok -> client.request("logging/setLevel", params))
        .compose(response -> {
          assertError(response, -32602);
          return levelsLogged(client);
        }).map(levels -> {
          assertEquals(List.of("error", "critical", "alert", "emergency"), levels);
          assertNoViolations(client);
          return levels;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsSetLevelWithoutParams(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-11-25").compose(client -> client.request("logging/setLevel", null)
        .map(response -> {
          assertError(response, -32602);
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void sendsPlainStringDataWithoutALogger(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).tool(Tool.builder("t").build(), (args, ctx) -> {
      ctx.log(LoggingLevel.INFO, null, "plain text");
      return Future.succeededFuture(ToolResult.text(""));
    });
    open(vertx, server, "2025-11-25").compose(client -> client.call("tools/call", new JsonObject().put("name", "t"))
        .map(result -> {
          JsonObject params = client.notifications("notifications/message").get(0).getJsonObject("params");
          assertEquals("plain text", params.getString("data"));
          assertFalse(params.containsKey("logger"));
          assertNoViolations(client);
          return result;
        })).onComplete(test.succeedingThenComplete());
  }
}
