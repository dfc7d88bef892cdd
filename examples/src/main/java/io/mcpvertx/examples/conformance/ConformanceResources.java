package io.mcpvertx.examples.conformance;

import static io.mcpvertx.examples.conformance.ConformanceFixtures.TEST_IMAGE_BASE64;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceResult;
import io.mcpvertx.server.resources.ResourceTemplate;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * The resources the {@code resources-*} scenarios list, read and subscribe to. Subscriptions are kept by the
 * session; {@link McpServer#resourceUpdated(String)} with {@link #WATCHED} tells the subscribers.
 */
final class ConformanceResources {

  static final String STATIC_TEXT = "test://static-text";
  static final String STATIC_BINARY = "test://static-binary";
  static final String TEMPLATE = "test://template/{id}/data";
  static final String WATCHED = "test://watched-resource";

  private ConformanceResources() {
  }

  static void register(McpServer server) {
    server.resource(Resource.of(STATIC_TEXT, "static-text", "text/plain")
            .withTitle("Static Text Resource")
            .withDescription("A static text resource for testing"),
        (uri, ctx) -> Future.succeededFuture(
            ResourceResult.text(uri, "text/plain", "This is the content of the static text resource.")));

    server.resource(Resource.of(STATIC_BINARY, "static-binary", "image/png")
            .withTitle("Static Binary Resource")
            .withDescription("A static binary resource (a 1x1 PNG) for testing"),
        (uri, ctx) -> Future.succeededFuture(ResourceResult.blob(uri, "image/png", TEST_IMAGE_BASE64)));

    // resources-templates-read reads test://template/123/data and looks for "123" in the text.
    server.resourceTemplate(ResourceTemplate.of(TEMPLATE, "template", "application/json")
            .withTitle("Resource Template")
            .withDescription("A resource template with parameter substitution"),
        (uri, variables, ctx) -> {
          String id = variables.get("id");
          JsonObject data = new JsonObject().put("id", id).put("templateTest", true).put("data", "Data for ID: " + id);
          return Future.succeededFuture(ResourceResult.text(uri, "application/json", data.encode()));
        });

    server.resource(Resource.of(WATCHED, "watched-resource", "text/plain")
            .withTitle("Watched Resource")
            .withDescription("A resource clients subscribe to for update notifications"),
        (uri, ctx) -> Future.succeededFuture(ResourceResult.text(uri, "text/plain", "Watched resource content")));
  }
}
