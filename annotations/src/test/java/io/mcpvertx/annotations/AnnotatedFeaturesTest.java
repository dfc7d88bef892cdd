package io.mcpvertx.annotations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Annotated prompts, resources, templates and completions over both generations. */
@ExtendWith(VertxExtension.class)
class AnnotatedFeaturesTest {

  private McpServer server;

  @BeforeEach
  void setUp(Vertx vertx) {
    server = McpServer.create(vertx);
    AnnotatedFeatures.register(server, new LibraryFeatures());
  }

  private static JsonObject result(JsonObject response) {
    assertTrue(response.containsKey("result"), response::encode);
    return response.getJsonObject("result");
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-06-18", "2025-11-25", Wires.STATELESS})
  void listsAndRendersPrompts(String version, Vertx vertx, VertxTestContext test) {
    Wires.request(vertx, server, version, "prompts/list", new JsonObject())
        .map(Wires.check(response -> {
          JsonArray prompts = result(response).getJsonArray("prompts");
          JsonObject review = prompts.getJsonObject(0);
          assertEquals("review", review.getString("name"));
          assertEquals(new JsonArray()
              .add(new JsonObject().put("name", "title").put("description", "The book's title").put("required", true))
              .add(new JsonObject().put("name", "genre").put("description", "Literary genre")),
              review.getJsonArray("arguments"));
        }))
        .compose(v -> Wires.request(vertx, server, version, "prompts/get", new JsonObject().put("name", "review")
            .put("arguments", new JsonObject().put("title", "Dune").put("genre", "prose"))))
        .map(Wires.check(response -> {
          JsonArray messages = result(response).getJsonArray("messages");
          assertEquals("Review Dune as prose", messages.getJsonObject(0).getJsonObject("content").getString("text"));
          assertEquals("assistant", messages.getJsonObject(1).getString("role"));
        }))
        .compose(v -> Wires.request(vertx, server, version, "prompts/get", new JsonObject().put("name", "short")
            .put("arguments", new JsonObject().put("topic", "tides"))))
        .map(Wires.check(response -> assertEquals("Tell me about tides", result(response).getJsonArray("messages")
            .getJsonObject(0).getJsonObject("content").getString("text"))))
        .compose(v -> Wires.request(vertx, server, version, "prompts/get", new JsonObject().put("name", "short")))
        .onComplete(test.succeeding(response -> test.verify(() -> {
          assertEquals("Tell me about the sea", result(response).getJsonArray("messages").getJsonObject(0)
              .getJsonObject("content").getString("text"), "the default applies to an absent argument");
          test.completeNow();
        })));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-06-18", Wires.STATELESS})
  void readsResourcesAndTemplates(String version, Vertx vertx, VertxTestContext test) {
    Wires.request(vertx, server, version, "resources/read", new JsonObject().put("uri", "library://catalogue"))
        .map(Wires.check(response -> {
          JsonObject contents = result(response).getJsonArray("contents").getJsonObject(0);
          assertEquals("catalogue of library://catalogue", contents.getString("text"));
          assertEquals("text/plain", contents.getString("mimeType"));
        }))
        .compose(v -> Wires.request(vertx, server, version, "resources/read", new JsonObject().put("uri",
            "library://cover")))
        .map(Wires.check(response -> {
          String blob = result(response).getJsonArray("contents").getJsonObject(0).getString("blob");
          assertEquals("off-loop", new String(Base64.getDecoder().decode(blob), StandardCharsets.UTF_8));
        }))
        .compose(v -> Wires.request(vertx, server, version, "resources/read", new JsonObject().put("uri",
            "library://books/poetry/42")))
        .map(Wires.check(response -> assertEquals("poetry #42 at library://books/poetry/42",
            result(response).getJsonArray("contents").getJsonObject(0).getString("text"))))
        .compose(v -> Wires.request(vertx, server, version, "resources/read", new JsonObject().put("uri",
            "library://books/poetry/missing")))
        .map(Wires.check(response -> assertEquals(-32002, response.getJsonObject("error").getInteger("code"))))
        .compose(v -> Wires.request(vertx, server, version, "resources/templates/list", new JsonObject()))
        .onComplete(test.succeeding(response -> test.verify(() -> {
          JsonObject template = result(response).getJsonArray("resourceTemplates").getJsonObject(0);
          assertEquals("library://books/{genre}/{id}", template.getString("uriTemplate"));
          assertEquals("book", template.getString("name"));
          test.completeNow();
        })));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-06-18", Wires.STATELESS})
  void completesPromptArgumentsAndTemplateVariables(String version, Vertx vertx, VertxTestContext test) {
    JsonObject prompt = new JsonObject().put("ref", new JsonObject().put("type", "ref/prompt").put("name", "review"))
        .put("argument", new JsonObject().put("name", "genre").put("value", "pr"));
    JsonObject template = new JsonObject()
        .put("ref", new JsonObject().put("type", "ref/resource").put("uri", "library://books/{genre}/{id}"))
        .put("argument", new JsonObject().put("name", "id").put("value", ""))
        .put("context", new JsonObject().put("arguments", new JsonObject().put("genre", "plays")));
    Wires.request(vertx, server, version, "completion/complete", prompt)
        .map(Wires.check(response -> assertEquals(new JsonArray().add("prose"),
            result(response).getJsonObject("completion").getJsonArray("values"))))
        .compose(v -> Wires.request(vertx, server, version, "completion/complete", template))
        .onComplete(test.succeeding(response -> test.verify(() -> {
          assertEquals(new JsonArray().add("plays-1"), result(response).getJsonObject("completion")
              .getJsonArray("values"));
          test.completeNow();
        })));
  }

  public static class StrayCompletion {
    @McpCompletion(prompt = "nowhere", argument = "x")
    public List<String> values(String typed) {
      return List.of();
    }
  }

  public static class StrayVariable {
    @McpResourceTemplate(uriTemplate = "x://{a}")
    public String read(String b) {
      return "";
    }
  }

  @Test
  void aCompletionOfNothingAndAStrayVariableFailRegistration() {
    String completion = assertThrows(HandlerDefinitionException.class,
        () -> AnnotatedFeatures.of(new StrayCompletion())).getMessage();
    assertTrue(completion.contains("StrayCompletion.values(String)") && completion.contains("nowhere"), completion);
    String variable = assertThrows(HandlerDefinitionException.class,
        () -> AnnotatedFeatures.of(new StrayVariable())).getMessage();
    assertTrue(variable.contains("StrayVariable.read(String)") && variable.contains("'b'"), variable);
  }
}
