package io.mcpvertx.examples.conformance;

import static io.mcpvertx.examples.conformance.ConformanceFixtures.TEST_IMAGE_BASE64;
import static io.mcpvertx.examples.conformance.ConformanceFixturesTest.objects;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;

/** The {@code prompts-*} scenarios: list, and get each of the four prompts with the suite's arguments. */
@ExtendWith(VertxExtension.class)
class PromptScenariosTest {

  @SessionRevisions
  void listDescribesEveryPrompt(String version, Vertx vertx, VertxTestContext test) {
    SuiteProfile.connect(vertx, version)
        .compose(client -> client.call("prompts/list", null).map(result -> {
          List<JsonObject> prompts = objects(result.getJsonArray("prompts"));
          assertEquals(List.of("test_simple_prompt", "test_prompt_with_arguments",
                  "test_prompt_with_embedded_resource", "test_prompt_with_image", "test_input_required_result_prompt"),
              prompts.stream().map(p -> p.getString("name")).toList());
          for (JsonObject prompt : prompts) {
            assertFalse(prompt.getString("description", "").isEmpty(), prompt::encode);
          }
          assertEquals(new JsonObject("""
              {"name": "test_prompt_with_arguments", "title": "Prompt With Arguments",
               "description": "A prompt with required arguments",
               "arguments": [{"name": "arg1", "description": "First test argument", "required": true},
                             {"name": "arg2", "description": "Second test argument", "required": true}]}
              """), prompts.get(1));
          client.assertNoViolations();
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @SessionRevisions
  void getSimple(String version, Vertx vertx, VertxTestContext test) {
    expectPrompt(vertx, test, version, new JsonObject().put("name", "test_simple_prompt"), """
        {"messages": [{"role": "user", "content": {"type": "text", "text": "This is a simple prompt for testing."}}]}
        """);
  }

  @SessionRevisions
  void getWithArgumentsQuotesBoth(String version, Vertx vertx, VertxTestContext test) {
    JsonObject params = new JsonObject().put("name", "test_prompt_with_arguments")
        .put("arguments", new JsonObject().put("arg1", "testValue1").put("arg2", "testValue2"));
    expectPrompt(vertx, test, version, params, """
        {"messages": [{"role": "user", "content": {"type": "text",
          "text": "Prompt with arguments: arg1='testValue1', arg2='testValue2'"}}]}
        """);
  }

  @SessionRevisions
  void getWithEmbeddedResourceEmbedsTheGivenUri(String version, Vertx vertx, VertxTestContext test) {
    JsonObject params = new JsonObject().put("name", "test_prompt_with_embedded_resource")
        .put("arguments", new JsonObject().put("resourceUri", "test://example-resource"));
    expectPrompt(vertx, test, version, params, """
        {"messages": [
          {"role": "user", "content": {"type": "resource", "resource": {"uri": "test://example-resource",
            "mimeType": "text/plain", "text": "Embedded resource content for testing."}}},
          {"role": "user", "content": {"type": "text", "text": "Please process the embedded resource above."}}]}
        """);
  }

  @SessionRevisions
  void getWithImage(String version, Vertx vertx, VertxTestContext test) {
    expectPrompt(vertx, test, version, new JsonObject().put("name", "test_prompt_with_image"), """
        {"messages": [
          {"role": "user", "content": {"type": "image", "data": "%s", "mimeType": "image/png"}},
          {"role": "user", "content": {"type": "text", "text": "Please analyze the image above."}}]}
        """.formatted(TEST_IMAGE_BASE64));
  }

  private static void expectPrompt(Vertx vertx, VertxTestContext test, String version, JsonObject params,
      String expected) {
    SuiteProfile.connect(vertx, version)
        .compose(client -> client.call("prompts/get", params).map(result -> {
          assertEquals(new JsonObject(expected), result);
          client.assertNoViolations();
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }
}
