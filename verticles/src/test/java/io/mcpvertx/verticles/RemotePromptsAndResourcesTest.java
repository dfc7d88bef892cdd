package io.mcpvertx.verticles;

import static io.mcpvertx.verticles.FeatureVerticles.assertNoViolations;
import static io.mcpvertx.verticles.FeatureVerticles.names;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.content.Annotations;
import io.mcpvertx.server.content.Icon;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptArgument;
import io.mcpvertx.server.prompts.PromptMessage;
import io.mcpvertx.server.prompts.PromptResult;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceResult;
import io.mcpvertx.verticles.FeatureVerticles.LambdaPrompt;
import io.mcpvertx.verticles.FeatureVerticles.LambdaResource;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class RemotePromptsAndResourcesTest {

  private static LambdaPrompt greeting(AtomicInteger calls) {
    return new LambdaPrompt(Prompt.of("greeting", "Greets someone", PromptArgument.required("name", "Who"),
        PromptArgument.optional("style", "How")), (args, ctx) -> {
          calls.incrementAndGet();
          return Future.succeededFuture(new PromptResult("A greeting", List.of(
              PromptMessage.user("Greet " + args.get("name") + " " + args.getOrDefault("style", "plainly")),
              PromptMessage.assistant("Hello, " + args.get("name")))));
        });
  }

  private static LambdaResource readme() {
    return new LambdaResource(Resource.of("file:///readme.md", "readme", "text/markdown"), (uri, ctx) ->
        Future.succeededFuture(ResourceResult.text(uri, "text/markdown", "# Read me")));
  }

  @Test
  void aPromptVerticleIsListedAndServedWithItsArguments(Vertx vertx, VertxTestContext test) {
    AtomicInteger calls = new AtomicInteger();
    FeatureVerticles.withRemote(vertx, greeting(calls))
        .compose(client -> names(client, "prompts/list", "prompts", "name")
            .compose(prompts -> {
              assertEquals(List.of("local-prompt", "greeting"), prompts);
              return client.call("prompts/get", new JsonObject().put("name", "greeting")
                  .put("arguments", new JsonObject().put("name", "Ada").put("style", "warmly")));
            })
            .map(result -> {
              assertEquals("A greeting", result.getString("description"));
              JsonArray messages = result.getJsonArray("messages");
              assertEquals(new JsonObject().put("role", "user").put("content",
                  new JsonObject().put("type", "text").put("text", "Greet Ada warmly")), messages.getJsonObject(0));
              assertEquals("Hello, Ada", messages.getJsonObject(1).getJsonObject("content").getString("text"));
              assertNoViolations(client);
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aMissingRequiredPromptArgumentIsRejectedByTheServer(Vertx vertx, VertxTestContext test) {
    AtomicInteger calls = new AtomicInteger();
    FeatureVerticles.withRemote(vertx, greeting(calls))
        .compose(client -> client.request("prompts/get", new JsonObject().put("name", "greeting")).map(response -> {
          assertEquals(JsonRpcErrorCodes.INVALID_PARAMS, response.getJsonObject("error").getInteger("code"));
          assertEquals(0, calls.get());
          assertNoViolations(client);
          return response;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aPromptDefinitionIsListedAsTheVerticleDeclaresIt(Vertx vertx, VertxTestContext test) {
    Prompt definition = new Prompt("titled", "Titled prompt", "Has everything",
        List.of(new PromptArgument("topic", "Topic", "What about", true)),
        List.of(new Icon("https://example.com/p.svg", "image/svg+xml", List.of("any"), null)));
    LambdaPrompt prompt = new LambdaPrompt(definition,
        (args, ctx) -> Future.succeededFuture(PromptResult.of(PromptMessage.user("x"))));
    FeatureVerticles.withRemote(vertx, prompt)
        .compose(client -> client.call("prompts/list", null).map(list -> {
          assertEquals(definition.toJson(ProtocolVersion.LATEST), list.getJsonArray("prompts").getJsonObject(1));
          assertNoViolations(client);
          return list;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aResourceVerticleIsListedAndRead(Vertx vertx, VertxTestContext test) {
    FeatureVerticles.withRemote(vertx, readme())
        .compose(client -> names(client, "resources/list", "resources", "uri")
            .compose(uris -> {
              assertEquals(List.of("local://resource", "file:///readme.md"), uris);
              return client.call("resources/read", new JsonObject().put("uri", "file:///readme.md"));
            })
            .map(result -> {
              assertEquals(new JsonArray().add(new JsonObject().put("uri", "file:///readme.md")
                  .put("mimeType", "text/markdown").put("text", "# Read me")), result.getJsonArray("contents"));
              assertNoViolations(client);
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void blobContentsRoundTrip(Vertx vertx, VertxTestContext test) {
    LambdaResource logo = new LambdaResource(Resource.of("file:///logo.png", "logo", "image/png"), (uri, ctx) ->
        Future.succeededFuture(ResourceResult.blob(uri, "image/png", "iVBORw0KGgo=")));
    FeatureVerticles.withRemote(vertx, logo)
        .compose(client -> client.call("resources/read", new JsonObject().put("uri", "file:///logo.png"))
            .map(result -> {
              assertEquals(new JsonObject().put("uri", "file:///logo.png").put("mimeType", "image/png")
                  .put("blob", "iVBORw0KGgo="), result.getJsonArray("contents").getJsonObject(0));
              assertNoViolations(client);
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aResourceDefinitionIsListedAsTheVerticleDeclaresIt(Vertx vertx, VertxTestContext test) {
    Resource definition = new Resource("file:///data.csv", "data", "Data", "Numbers", "text/csv", 1234L,
        new Annotations(List.of("user"), 0.5, "2025-01-01T00:00:00Z"),
        List.of(new Icon("https://example.com/csv.png", "image/png", List.of("16x16", "32x32"), "dark")));
    LambdaResource resource = new LambdaResource(definition,
        (uri, ctx) -> Future.succeededFuture(ResourceResult.text(uri, "text/csv", "1,2")));
    FeatureVerticles.withRemote(vertx, resource)
        .compose(client -> client.call("resources/list", null).map(list -> {
          assertEquals(definition.toJson(ProtocolVersion.LATEST), list.getJsonArray("resources").getJsonObject(1));
          assertNoViolations(client);
          return list;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aResourceNotFoundRaisedRemotelyKeepsItsCodeAndData(Vertx vertx, VertxTestContext test) {
    LambdaResource gone = new LambdaResource(Resource.of("file:///gone", "gone", "text/plain"), (uri, ctx) ->
        Future.failedFuture(new McpException(JsonRpcErrorCodes.RESOURCE_NOT_FOUND, "Resource not found: " + uri,
            new JsonObject().put("uri", uri))));
    FeatureVerticles.withRemote(vertx, gone)
        .compose(client -> client.request("resources/read", new JsonObject().put("uri", "file:///gone"))
            .map(response -> {
              assertEquals(new JsonObject().put("code", JsonRpcErrorCodes.RESOURCE_NOT_FOUND)
                  .put("message", "Resource not found: file:///gone")
                  .put("data", new JsonObject().put("uri", "file:///gone")), response.getJsonObject("error"));
              assertNoViolations(client);
              return response;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void promptAndResourceVerticlesDeployedBeforeAttachAreFoundByDiscovery(Vertx vertx, VertxTestContext test) {
    McpServer server = FeatureVerticles.server(vertx);
    vertx.deployVerticle(greeting(new AtomicInteger()))
        .compose(id -> vertx.deployVerticle(readme()))
        .compose(id -> FeatureVerticles.client(vertx, server))
        .compose(client -> FeatureVerticles.attachOn(client, vertx, server)
            .compose(remote -> client.awaitNotification("notifications/prompts/list_changed"))
            .compose(changed -> client.awaitNotification("notifications/resources/list_changed"))
            .compose(changed -> names(client, "prompts/list", "prompts", "name"))
            .compose(prompts -> {
              assertEquals(List.of("local-prompt", "greeting"), prompts);
              return names(client, "resources/list", "resources", "uri");
            })
            .map(uris -> {
              assertEquals(List.of("local://resource", "file:///readme.md"), uris);
              assertNoViolations(client);
              return uris;
            }))
        .onComplete(test.succeedingThenComplete());
  }
}
