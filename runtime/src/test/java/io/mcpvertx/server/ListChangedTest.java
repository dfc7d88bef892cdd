package io.mcpvertx.server;

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
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** notifications/{tools,resources,prompts}/list_changed when the registry changes under an open session. */
@ExtendWith(VertxExtension.class)
class ListChangedTest {

  private static McpServer server(Vertx vertx) {
    return McpServer.create(vertx)
        .tool(Tool.builder("first").build(), (args, ctx) -> Future.succeededFuture(ToolResult.text("")))
        .resource(Resource.of("mem://first", "first", null),
            (uri, ctx) -> Future.succeededFuture(ResourceResult.text(uri, null, "")))
        .prompt(Prompt.of("first", null), (args, ctx) -> Future.succeededFuture(PromptResult.of()));
  }

  /** Changes the registry on an operating session and yields the notification that follows. */
  private static Future<JsonObject> afterChange(Vertx vertx, McpServer server, Consumer<McpServer> change,
      String method) {
    return open(vertx, server, "2025-11-25").compose(client -> {
      change.accept(server);
      return client.awaitNotification(method).map(notification -> {
        assertNoViolations(client);
        return notification;
      });
    });
  }

  @Test
  void announcesAToolAddedAtRunTime(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx);
    afterChange(vertx, server, s -> s.tool(Tool.builder("second").build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text(""))), "notifications/tools/list_changed")
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void announcesARemovedTool(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx);
    afterChange(vertx, server, s -> assertTrue(s.removeTool("first")), "notifications/tools/list_changed")
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void announcesResourceAndTemplateChanges(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx);
    afterChange(vertx, server, s -> s.resourceTemplate(ResourceTemplate.of("mem://{x}", "any", null),
        (uri, vars, ctx) -> Future.succeededFuture(ResourceResult.text(uri, null, ""))),
        "notifications/resources/list_changed")
        .compose(n -> afterChange(vertx, server, s -> assertTrue(s.removeResource("mem://first")),
            "notifications/resources/list_changed"))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void announcesPromptChanges(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx);
    afterChange(vertx, server, s -> assertTrue(s.removePrompt("first")), "notifications/prompts/list_changed")
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void tellsEveryOpenSession(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx);
    open(vertx, server, "2025-11-25").compose(a -> open(vertx, server, "2025-06-18").compose(b -> {
      server.removeTool("first");
      return a.awaitNotification("notifications/tools/list_changed")
          .compose(n -> b.awaitNotification("notifications/tools/list_changed"))
          .map(n -> {
            assertNoViolations(a);
            assertNoViolations(b);
            return n;
          });
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void saysNothingWhenARemovalChangesNothing(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx);
    open(vertx, server, "2025-11-25").compose(client -> {
      assertFalse(server.removeTool("absent"));
      assertFalse(server.removePrompt("absent"));
      assertFalse(server.removeResource("mem://absent"));
      assertFalse(server.removeResourceTemplate("mem://{absent}"));
      return client.call("ping", null).map(p -> {
        assertTrue(client.notifications().isEmpty(), client.notifications().toString());
        assertNoViolations(client);
        return p;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void saysNothingBeforeTheClientSendsInitialized(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx);
    JsonObject init = new JsonObject().put("protocolVersion", "2025-11-25").put("capabilities", new JsonObject())
        .put("clientInfo", new JsonObject().put("name", "t").put("version", "1"));
    McpTestClient.inProcess(vertx, server).compose(client -> client.call("initialize", init).compose(r -> {
      server.tool(Tool.builder("early").build(), (args, ctx) -> Future.succeededFuture(ToolResult.text("")));
      return client.call("ping", null);
    }).compose(p -> {
      assertTrue(client.notifications().isEmpty(), client.notifications().toString());
      client.notify("notifications/initialized", null);
      return client.call("ping", null);
    }).compose(p -> {
      server.removeTool("early");
      return client.awaitNotification("notifications/tools/list_changed");
    }).map(n -> {
      assertEquals(1, client.notifications().size());
      assertNoViolations(client);
      return n;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void saysNothingAboutAFeatureTheSessionWasNotOffered(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx)
        .tool(Tool.builder("only").build(), (args, ctx) -> Future.succeededFuture(ToolResult.text("")));
    open(vertx, server, "2025-11-25").compose(client -> {
      server.prompt(Prompt.of("late", null), (args, ctx) -> Future.succeededFuture(PromptResult.of()));
      return client.call("ping", null).map(p -> {
        assertTrue(client.notifications("notifications/prompts/list_changed").isEmpty());
        assertNoViolations(client);
        return p;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void stopsAfterTheSessionCloses(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx);
    open(vertx, server, "2025-11-25").compose(client -> client.close().map(v -> {
      server.removeTool("first");
      assertEquals(0, ((io.mcpvertx.server.impl.McpServerImpl) server).registryListeners());
      assertTrue(client.notifications().isEmpty());
      assertNoViolations(client);
      return v;
    })).onComplete(test.succeedingThenComplete());
  }
}
