package io.mcpvertx.server;

import static io.mcpvertx.server.McpTesting.assertError;
import static io.mcpvertx.server.McpTesting.assertNoViolations;
import static io.mcpvertx.server.McpTesting.open;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.completion.Completion;
import io.mcpvertx.server.completion.CompletionRequest;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptArgument;
import io.mcpvertx.server.prompts.PromptResult;
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
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** completion/complete for prompt arguments and template variables. */
@ExtendWith(VertxExtension.class)
class CompletionTest {

  private static final String TEMPLATE = "github://repos/{owner}/{repo}";

  private final AtomicReference<CompletionRequest> seen = new AtomicReference<>();

  private McpServer server(Vertx vertx) {
    return McpServer.create(vertx)
        .prompt(Prompt.of("code_review", "Reviews code", PromptArgument.required("language", null)),
            (args, ctx) -> Future.succeededFuture(PromptResult.of()))
        .promptCompletion("code_review", "language", (request, ctx) -> {
          seen.set(request);
          return Future.succeededFuture(Completion.matching(List.of("python", "pytorch", "rust"), request.value()));
        })
        .resourceTemplate(ResourceTemplate.of(TEMPLATE, "repos", null),
            (uri, vars, ctx) -> Future.succeededFuture(ResourceResult.text(uri, null, "")))
        .resourceTemplateCompletion(TEMPLATE, "repo", (request, ctx) -> {
          seen.set(request);
          String owner = request.context().getOrDefault("owner", "?");
          return Future.succeededFuture(Completion.of(List.of(owner + "/vertx")));
        });
  }

  private static JsonObject promptRef(String name, String argument, String value) {
    return new JsonObject().put("ref", new JsonObject().put("type", "ref/prompt").put("name", name))
        .put("argument", new JsonObject().put("name", argument).put("value", value));
  }

  private static JsonObject templateRef(String uri, String argument, String value) {
    return new JsonObject().put("ref", new JsonObject().put("type", "ref/resource").put("uri", uri))
        .put("argument", new JsonObject().put("name", argument).put("value", value));
  }

  private static Future<JsonObject> complete(McpTestClient client, JsonObject params) {
    return client.request("completion/complete", params);
  }

  @Test
  void advertisesCompletionsWhenAHandlerIsRegistered(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, server(vertx)).compose(client -> client.initialize("2025-03-26").map(init -> {
      assertEquals(new JsonObject(), init.getJsonObject("capabilities").getJsonObject("completions"));
      assertNoViolations(client);
      return init;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void completesAPromptArgument(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-11-25").compose(client -> complete(client,
        promptRef("code_review", "language", "py")).map(response -> {
          JsonObject completion = response.getJsonObject("result").getJsonObject("completion");
          assertEquals(new JsonArray().add("python").add("pytorch"), completion.getJsonArray("values"));
          assertFalse(completion.getBoolean("hasMore", false));
          assertEquals("language", seen.get().argument());
          assertEquals("py", seen.get().value());
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void completesATemplateVariableWithContextArguments(Vertx vertx, VertxTestContext test) {
    JsonObject params = templateRef(TEMPLATE, "repo", "v")
        .put("context", new JsonObject().put("arguments", new JsonObject().put("owner", "eclipse-vertx")));
    open(vertx, server(vertx), "2025-06-18").compose(client -> complete(client, params).map(response -> {
      assertEquals(new JsonArray().add("eclipse-vertx/vertx"),
          response.getJsonObject("result").getJsonObject("completion").getJsonArray("values"));
      assertEquals(Map.of("owner", "eclipse-vertx"), seen.get().context());
      assertNoViolations(client);
      return response;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void ignoresContextArgumentsBefore20250618(Vertx vertx, VertxTestContext test) {
    JsonObject params = templateRef(TEMPLATE, "repo", "v")
        .put("context", new JsonObject().put("arguments", new JsonObject().put("owner", "eclipse-vertx")));
    open(vertx, server(vertx), "2025-03-26").compose(client -> complete(client, params).map(response -> {
      assertEquals(Map.of(), seen.get().context());
      assertNoViolations(client);
      return response;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void capsValuesAtOneHundredAndSaysThereAreMore(Vertx vertx, VertxTestContext test) {
    List<String> many = IntStream.range(0, 150).mapToObj(i -> "v" + i).toList();
    McpServer server = McpServer.create(vertx)
        .prompt(Prompt.of("p", null, PromptArgument.optional("a", null)),
            (args, ctx) -> Future.succeededFuture(PromptResult.of()))
        .promptCompletion("p", "a", (request, ctx) -> Future.succeededFuture(Completion.of(many)));
    open(vertx, server, "2025-11-25").compose(client -> complete(client, promptRef("p", "a", "")).map(response -> {
      JsonObject completion = response.getJsonObject("result").getJsonObject("completion");
      assertEquals(100, completion.getJsonArray("values").size());
      assertEquals("v0", completion.getJsonArray("values").getString(0));
      assertEquals(true, completion.getBoolean("hasMore"));
      assertEquals(150, completion.getInteger("total"));
      assertNoViolations(client);
      return response;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersNoValuesForAnArgumentWithoutAHandler(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-11-25").compose(client -> complete(client, templateRef(TEMPLATE, "owner", "e"))
        .map(response -> {
          assertEquals(new JsonArray(),
              response.getJsonObject("result").getJsonObject("completion").getJsonArray("values"));
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsAnUnknownPrompt(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-11-25").compose(client -> complete(client, promptRef("nope", "language", ""))
        .map(response -> {
          assertTrue(assertError(response, -32602).getString("message").contains("nope"));
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsAnUnknownTemplateAndABadReference(Vertx vertx, VertxTestContext test) {
    JsonObject badRef = promptRef("code_review", "language", "");
    badRef.getJsonObject("ref").put("type", "ref/tool");
    open(vertx, server(vertx), "2025-11-25").compose(client -> complete(client, templateRef("x://{y}", "y", ""))
        .compose(unknown -> {
          assertError(unknown, -32602);
          return complete(client, badRef);
        }).map(bad -> {
          assertError(bad, -32602);
          assertNoViolations(client);
          return bad;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersMethodNotFoundWhenTheServerOffersNoCompletions(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).prompt(Prompt.of("p", null, PromptArgument.optional("a", null)),
        (args, ctx) -> Future.succeededFuture(PromptResult.of()));
    McpTestClient.inProcess(vertx, server).compose(client -> client.initialize("2025-11-25").compose(init -> {
      assertFalse(init.getJsonObject("capabilities").containsKey("completions"));
      return complete(client, promptRef("p", "a", ""));
    }).map(response -> {
      assertError(response, -32601);
      assertNoViolations(client);
      return response;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void servesCompletionsOn20241105WhichHadNoCapabilityForThem(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, server(vertx)).compose(client -> client.initialize("2024-11-05").compose(init -> {
      assertFalse(init.getJsonObject("capabilities").containsKey("completions"));
      return complete(client, promptRef("code_review", "language", "ru"));
    }).map(response -> {
      assertEquals(new JsonArray().add("rust"),
          response.getJsonObject("result").getJsonObject("completion").getJsonArray("values"));
      assertNoViolations(client);
      return response;
    })).onComplete(test.succeedingThenComplete());
  }
}
