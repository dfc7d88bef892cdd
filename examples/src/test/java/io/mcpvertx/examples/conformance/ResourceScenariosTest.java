package io.mcpvertx.examples.conformance;

import static io.mcpvertx.examples.conformance.ConformanceFixtures.TEST_IMAGE_BASE64;
import static io.mcpvertx.examples.conformance.ConformanceFixturesTest.objects;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The {@code resources-*} scenarios: list, read text, read binary, read through the template, subscribe and
 * unsubscribe.
 */
@ExtendWith(VertxExtension.class)
class ResourceScenariosTest {

  @SessionRevisions
  void listNamesEveryDirectResourceAndTheTemplateApart(String version, Vertx vertx, VertxTestContext test) {
    SuiteProfile.connect(vertx, version)
        .compose(client -> client.call("resources/list", null).map(result -> {
          List<JsonObject> resources = objects(result.getJsonArray("resources"));
          assertEquals(List.of("test://static-text", "test://static-binary", "test://watched-resource"),
              resources.stream().map(r -> r.getString("uri")).toList());
          for (JsonObject resource : resources) {
            assertFalse(resource.getString("name", "").isEmpty(), resource::encode);
            assertFalse(resource.getString("description", "").isEmpty(), resource::encode);
          }
          assertEquals(new JsonObject("""
              {"uri": "test://static-text", "name": "static-text", "title": "Static Text Resource",
               "description": "A static text resource for testing", "mimeType": "text/plain"}
              """), resources.get(0));
          return client;
        }))
        .compose(client -> client.call("resources/templates/list", null).map(result -> {
          assertEquals(new JsonObject("""
              {"resourceTemplates": [{"uriTemplate": "test://template/{id}/data", "name": "template",
                "title": "Resource Template", "description": "A resource template with parameter substitution",
                "mimeType": "application/json"}]}
              """), result);
          client.assertNoViolations();
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @SessionRevisions
  void readText(String version, Vertx vertx, VertxTestContext test) {
    expectRead(vertx, test, version, "test://static-text", """
        {"contents": [{"uri": "test://static-text", "mimeType": "text/plain",
          "text": "This is the content of the static text resource."}]}
        """);
  }

  @SessionRevisions
  void readBinary(String version, Vertx vertx, VertxTestContext test) {
    expectRead(vertx, test, version, "test://static-binary", """
        {"contents": [{"uri": "test://static-binary", "mimeType": "image/png", "blob": "%s"}]}
        """.formatted(TEST_IMAGE_BASE64));
  }

  @SessionRevisions
  void readThroughTheTemplateEchoesTheId(String version, Vertx vertx, VertxTestContext test) {
    expectRead(vertx, test, version, "test://template/123/data", """
        {"contents": [{"uri": "test://template/123/data", "mimeType": "application/json",
          "text": "{\\"id\\":\\"123\\",\\"templateTest\\":true,\\"data\\":\\"Data for ID: 123\\"}"}]}
        """);
  }

  @SessionRevisions
  void subscribeThenUnsubscribeTheWatchedResource(String version, Vertx vertx, VertxTestContext test) {
    McpServer server = ConformanceFixtures.create(vertx);
    JsonObject watched = new JsonObject().put("uri", "test://watched-resource");
    McpTestClient.inProcess(vertx, server)
        .compose(client -> client.initialize(version, SuiteProfile.capabilities()).map(init -> client))
        .compose(client -> client.call("resources/subscribe", watched).compose(result -> {
          assertEquals(new JsonObject(), result);
          server.resourceUpdated("test://watched-resource");
          return client.awaitNotification("notifications/resources/updated");
        }).map(updated -> {
          assertEquals(watched, updated.getJsonObject("params"));
          return client;
        }))
        .compose(client -> client.call("resources/unsubscribe", watched).compose(result -> {
          assertEquals(new JsonObject(), result);
          server.resourceUpdated("test://watched-resource");
          // A ping answered after the update has been handled proves no notification was queued for us.
          return client.call("ping", null);
        }).map(pong -> {
          assertEquals(1, client.notifications("notifications/resources/updated").size());
          client.assertNoViolations();
          return client;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  private static void expectRead(Vertx vertx, VertxTestContext test, String version, String uri, String expected) {
    SuiteProfile.connect(vertx, version)
        .compose(client -> client.call("resources/read", new JsonObject().put("uri", uri)).map(result -> {
          assertEquals(new JsonObject(expected), result);
          client.assertNoViolations();
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }
}
