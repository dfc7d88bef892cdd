package io.mcpvertx.server;

import static io.mcpvertx.server.McpTesting.assertError;
import static io.mcpvertx.server.McpTesting.assertNoViolations;
import static io.mcpvertx.server.McpTesting.open;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.content.Icon;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceResult;
import io.mcpvertx.server.resources.ResourceTemplate;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** resources/list, templates/list, read, subscribe and resources/updated. */
@ExtendWith(VertxExtension.class)
class ResourcesTest {

  private static final String README = "file:///project/README.md";
  private static final String LOGO = "file:///project/logo.png";

  private static McpServer server(Vertx vertx) {
    return McpServer.create(vertx)
        .resource(Resource.of(README, "readme", "text/markdown").withTitle("Read me").withDescription("Start here"),
            (uri, ctx) -> Future.succeededFuture(ResourceResult.text(uri, "text/markdown", "# Hello")))
        .resource(Resource.of(LOGO, "logo", "image/png"),
            (uri, ctx) -> Future.succeededFuture(ResourceResult.blob(uri, "image/png", "iVBORw0KGgo=")))
        .resourceTemplate(ResourceTemplate.of("file:///logs/{date}{?level}", "logs", "text/plain")
            .withTitle("Daily logs"),
            (uri, vars, ctx) -> Future.succeededFuture(ResourceResult.text(uri, "text/plain",
                vars.get("date") + "/" + vars.getOrDefault("level", "all"))));
  }

  private static Future<JsonObject> read(McpTestClient client, String uri) {
    return client.request("resources/read", new JsonObject().put("uri", uri));
  }

  @Test
  void advertisesSubscribeAndListChanged(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, server(vertx)).compose(client -> client.initialize("2025-11-25").map(init -> {
      assertEquals(new JsonObject().put("subscribe", true).put("listChanged", true),
          init.getJsonObject("capabilities").getJsonObject("resources"));
      assertNoViolations(client);
      return init;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void listsConcreteResourcesWithTheirMetadata(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-06-18").compose(client -> client.call("resources/list", null).map(list -> {
      JsonArray resources = list.getJsonArray("resources");
      assertEquals(2, resources.size());
      assertEquals(new JsonObject().put("uri", README).put("name", "readme").put("title", "Read me")
          .put("description", "Start here").put("mimeType", "text/markdown"), resources.getJsonObject(0));
      assertEquals(LOGO, resources.getJsonObject(1).getString("uri"));
      assertFalse(list.containsKey("nextCursor"));
      assertNoViolations(client);
      return list;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void leavesResourceTitlesOutBefore20250618(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-03-26").compose(client -> client.call("resources/list", null).map(list -> {
      assertFalse(list.getJsonArray("resources").getJsonObject(0).containsKey("title"));
      assertNoViolations(client);
      return list;
    })).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", "2025-06-18"})
  void listsIconsOfResourcesAndTemplatesOnlyFrom20251125(String version, Vertx vertx, VertxTestContext test) {
    List<Icon> icons = List.of(new Icon("https://example.com/r.png", "image/png", List.of("48x48"), "dark"));
    McpServer server = McpServer.create(vertx)
        .resource(new Resource("mem://r", "r", null, null, null, 12L, null, icons),
            (uri, ctx) -> Future.succeededFuture(ResourceResult.text(uri, null, "")))
        .resourceTemplate(new ResourceTemplate("mem://{x}", "t", null, null, null, null, icons),
            (uri, vars, ctx) -> Future.succeededFuture(ResourceResult.text(uri, null, "")));
    boolean expected = version.equals("2025-11-25");
    open(vertx, server, version).compose(client -> client.call("resources/list", null).compose(list -> {
      JsonObject resource = list.getJsonArray("resources").getJsonObject(0);
      assertEquals(expected, resource.containsKey("icons"), resource.encode());
      assertEquals(12L, resource.getLong("size"));
      return client.call("resources/templates/list", null);
    }).map(list -> {
      JsonObject template = list.getJsonArray("resourceTemplates").getJsonObject(0);
      assertEquals(expected, template.containsKey("icons"), template.encode());
      if (expected) {
        assertEquals(new JsonObject().put("src", "https://example.com/r.png").put("mimeType", "image/png")
            .put("sizes", new JsonArray().add("48x48")).put("theme", "dark"),
            template.getJsonArray("icons").getJsonObject(0));
      }
      assertNoViolations(client);
      return list;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void readsTextContents(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-11-25").compose(client -> read(client, README).map(response -> {
      JsonArray contents = response.getJsonObject("result").getJsonArray("contents");
      assertEquals(new JsonObject().put("uri", README).put("mimeType", "text/markdown").put("text", "# Hello"),
          contents.getJsonObject(0));
      assertNoViolations(client);
      return response;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void readsBlobContents(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-11-25").compose(client -> read(client, LOGO).map(response -> {
      JsonObject contents = response.getJsonObject("result").getJsonArray("contents").getJsonObject(0);
      assertEquals("iVBORw0KGgo=", contents.getString("blob"));
      assertFalse(contents.containsKey("text"));
      assertNoViolations(client);
      return response;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void listsTemplates(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-11-25").compose(client -> client.call("resources/templates/list", null)
        .map(list -> {
          assertEquals(new JsonArray().add(new JsonObject().put("uriTemplate", "file:///logs/{date}{?level}")
              .put("name", "logs").put("title", "Daily logs").put("mimeType", "text/plain")),
              list.getJsonArray("resourceTemplates"));
          assertNoViolations(client);
          return list;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void readsThroughATemplateWithTheExtractedVariables(Vertx vertx, VertxTestContext test) {
    AtomicReference<Map<String, String>> seen = new AtomicReference<>();
    McpServer server = McpServer.create(vertx).resourceTemplate(
        ResourceTemplate.of("db://{schema}/tables/{table}{?limit}", "tables", "application/json"),
        (uri, vars, ctx) -> {
          seen.set(vars);
          return Future.succeededFuture(ResourceResult.text(uri, "application/json", "[]"));
        });
    open(vertx, server, "2025-11-25").compose(client -> read(client, "db://sales/tables/order%20lines?limit=5")
        .map(response -> {
          assertEquals(Map.of("schema", "sales", "table", "order lines", "limit", "5"), seen.get());
          JsonObject contents = response.getJsonObject("result").getJsonArray("contents").getJsonObject(0);
          assertEquals("db://sales/tables/order%20lines?limit=5", contents.getString("uri"));
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void readsAConcreteResourceBeforeAMatchingTemplate(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx)
        .resourceTemplate(ResourceTemplate.of("file:///logs/{date}", "logs", "text/plain"),
            (uri, vars, ctx) -> Future.succeededFuture(ResourceResult.text(uri, "text/plain", "template")))
        .resource(Resource.of("file:///logs/today", "today", "text/plain"),
            (uri, ctx) -> Future.succeededFuture(ResourceResult.text(uri, "text/plain", "concrete")));
    open(vertx, server, "2025-11-25").compose(client -> read(client, "file:///logs/today").map(response -> {
      assertEquals("concrete", response.getJsonObject("result").getJsonArray("contents").getJsonObject(0)
          .getString("text"));
      assertNoViolations(client);
      return response;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersAnUnknownUriWithResourceNotFound(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-11-25").compose(client -> read(client, "file:///nope").map(response -> {
      JsonObject error = assertError(response, -32002);
      assertEquals("file:///nope", error.getJsonObject("data").getString("uri"));
      assertNoViolations(client);
      return response;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersResourceNotFoundWhenATemplateHandlerFindsNothing(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).resourceTemplate(
        ResourceTemplate.of("users://{id}", "users", "application/json"),
        (uri, vars, ctx) -> Future.succeededFuture(null));
    open(vertx, server, "2025-11-25").compose(client -> read(client, "users://42").map(response -> {
      assertEquals("users://42", assertError(response, -32002).getJsonObject("data").getString("uri"));
      assertNoViolations(client);
      return response;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void keepsTheCodeOfAReadHandlerFailure(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).resource(Resource.of("secret://x", "x", null),
        (uri, ctx) -> Future.failedFuture(new McpException(-32051, "Forbidden")));
    open(vertx, server, "2025-11-25").compose(client -> read(client, "secret://x").map(response -> {
      assertEquals("Forbidden", assertError(response, -32051).getString("message"));
      assertNoViolations(client);
      return response;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsReadAndSubscribeWithoutAUri(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-11-25").compose(client -> client.request("resources/read", new JsonObject())
        .compose(read -> {
          assertError(read, -32602);
          return client.request("resources/subscribe", new JsonObject().put("uri", 7));
        }).map(subscribe -> {
          assertError(subscribe, -32602);
          assertNoViolations(client);
          return subscribe;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void notifiesOnlySubscribedSessionsOfUpdates(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx);
    open(vertx, server, "2025-11-25").compose(subscriber -> open(vertx, server, "2025-11-25").compose(bystander ->
        subscriber.call("resources/subscribe", new JsonObject().put("uri", README)).compose(ok -> {
          server.resourceUpdated(README);
          server.resourceUpdated(LOGO);
          return subscriber.awaitNotification("notifications/resources/updated");
        }).compose(updated -> {
          assertEquals(README, updated.getJsonObject("params").getString("uri"));
          // A round trip on each session: anything queued for it has been delivered by then.
          return subscriber.call("ping", null).compose(p -> bystander.call("ping", null));
        }).map(p -> {
          assertEquals(1, subscriber.notifications("notifications/resources/updated").size());
          assertTrue(bystander.notifications("notifications/resources/updated").isEmpty());
          assertNoViolations(subscriber);
          assertNoViolations(bystander);
          return p;
        }))).onComplete(test.succeedingThenComplete());
  }

  @Test
  void stopsNotifyingAfterUnsubscribe(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx);
    open(vertx, server, "2025-11-25").compose(client ->
        client.call("resources/subscribe", new JsonObject().put("uri", README))
            .compose(ok -> client.call("resources/unsubscribe", new JsonObject().put("uri", README)))
            .compose(ok -> {
              server.resourceUpdated(README);
              return client.call("ping", null);
            }).map(p -> {
              assertTrue(client.notifications("notifications/resources/updated").isEmpty());
              assertNoViolations(client);
              return p;
            })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void reportsLocalUpdatesToTheRelayAndDeliversUpdatesFromElsewhereWithoutReportingThem(Vertx vertx,
      VertxTestContext test) {
    McpServer server = server(vertx);
    List<String> relayed = new java.util.concurrent.CopyOnWriteArrayList<>();
    server.resourceUpdateRelay(relayed::add);
    open(vertx, server, "2025-11-25").compose(client ->
        client.call("resources/subscribe", new JsonObject().put("uri", README)).compose(ok -> {
          server.resourceUpdatedElsewhere(README);
          return client.awaitNotification("notifications/resources/updated");
        }).compose(fromElsewhere -> {
          assertEquals(List.of(), relayed, "an update from elsewhere must not be relayed back");
          server.resourceUpdated(LOGO);
          server.resourceUpdateRelay(null);
          server.resourceUpdated(README);
          return client.call("ping", null);
        }).map(p -> {
          assertEquals(List.of(LOGO), relayed);
          assertEquals(2, client.notifications("notifications/resources/updated").size());
          assertNoViolations(client);
          return p;
        })).onComplete(test.succeedingThenComplete());
  }
}
