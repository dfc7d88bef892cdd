package io.mcpvertx.examples.conformance;

import static io.mcpvertx.examples.conformance.ConformanceFixtures.TEST_AUDIO_BASE64;
import static io.mcpvertx.examples.conformance.ConformanceFixtures.TEST_IMAGE_BASE64;
import static io.mcpvertx.examples.conformance.ConformanceFixturesTest.firstText;
import static io.mcpvertx.examples.conformance.ConformanceFixturesTest.objects;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The {@code tools-call-*} scenarios that need nothing from the client, plus the reconnection and {@code greet}
 * fixtures: exact results, and the notifications sent before the response.
 */
@ExtendWith(VertxExtension.class)
class ToolCallScenariosTest {

  @SessionRevisions
  void simpleTextIsCalledWithoutArguments(String version, Vertx vertx, VertxTestContext test) {
    expectResult(vertx, test, version, client -> client.toolsCall("test_simple_text", null), """
        {"content": [{"type": "text", "text": "This is a simple text response for testing."}]}
        """);
  }

  @SessionRevisions
  void imageContent(String version, Vertx vertx, VertxTestContext test) {
    expectResult(vertx, test, version, client -> client.toolsCall("test_image_content", new JsonObject()),
        """
        {"content": [{"type": "image", "data": "%s", "mimeType": "image/png"}]}
        """.formatted(TEST_IMAGE_BASE64));
  }

  @SessionRevisions
  void audioContentIsWav(String version, Vertx vertx, VertxTestContext test) {
    expectResult(vertx, test, version, client -> client.toolsCall("test_audio_content", new JsonObject()),
        """
        {"content": [{"type": "audio", "data": "%s", "mimeType": "audio/wav"}]}
        """.formatted(TEST_AUDIO_BASE64));
  }

  @SessionRevisions
  void embeddedResource(String version, Vertx vertx, VertxTestContext test) {
    expectResult(vertx, test, version, client -> client.toolsCall("test_embedded_resource", new JsonObject()), """
        {"content": [{"type": "resource", "resource": {"uri": "test://embedded-resource",
          "mimeType": "text/plain", "text": "This is an embedded resource content."}}]}
        """);
  }

  @SessionRevisions
  void mixedContentHasTextImageAndResource(String version, Vertx vertx, VertxTestContext test) {
    expectResult(vertx, test, version, client -> client.toolsCall("test_multiple_content_types", new JsonObject()),
        """
        {"content": [
          {"type": "text", "text": "Multiple content types test:"},
          {"type": "image", "data": "%s", "mimeType": "image/png"},
          {"type": "resource", "resource": {"uri": "test://mixed-content-resource", "mimeType": "application/json",
            "text": "{\\"test\\":\\"data\\",\\"value\\":123}"}}]}
        """.formatted(TEST_IMAGE_BASE64));
  }

  @SessionRevisions
  void errorIsAToolResultNotAProtocolError(String version, Vertx vertx, VertxTestContext test) {
    expectResult(vertx, test, version, client -> client.toolsCall("test_error_handling", new JsonObject()), """
        {"isError": true,
         "content": [{"type": "text", "text": "This tool intentionally returns an error for testing"}]}
        """);
  }

  @SessionRevisions
  void withLoggingSendsThreeInfoMessagesBeforeItsResult(String version, Vertx vertx, VertxTestContext test) {
    SuiteProfile.connect(vertx, version)
        .compose(client -> client.call("logging/setLevel", new JsonObject().put("level", "debug"))
            .compose(v -> client.toolsCall("test_tool_with_logging", new JsonObject()))
            .map(result -> {
              assertEquals("Tool with logging executed successfully", firstText(result));
              List<JsonObject> logs = client.notifications("notifications/message");
              assertEquals(List.of("Tool execution started", "Tool processing data", "Tool execution completed"),
                  logs.stream().map(n -> n.getJsonObject("params").getString("data")).toList());
              for (JsonObject log : logs) {
                assertEquals("info", log.getJsonObject("params").getString("level"));
                assertEquals(ConformanceFixtures.LOGGER, log.getJsonObject("params").getString("logger"));
              }
              client.assertNoViolations();
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  /** 0.1.16's SDK replaces the token with the request id, a number. */
  @SessionRevisions
  void withProgressEchoesANumericToken(String version, Vertx vertx, VertxTestContext test) {
    expectProgress(vertx, test, version, 1, "1");
  }

  /** alpha sends its own token, a string. */
  @SessionRevisions
  void withProgressEchoesAStringToken(String version, Vertx vertx, VertxTestContext test) {
    expectProgress(vertx, test, version, "progress-test-1", "progress-test-1");
  }

  @SessionRevisions
  void withProgressSendsNothingWithoutAToken(String version, Vertx vertx, VertxTestContext test) {
    SuiteProfile.connect(vertx, version)
        .compose(client -> client.toolsCall("test_tool_with_progress", new JsonObject()).map(result -> {
          assertEquals("No progress token was sent", firstText(result));
          assertEquals(List.of(), client.notifications("notifications/progress"));
          client.assertNoViolations();
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @SessionRevisions
  void reconnectionToolAnswersOnTheSameStream(String version, Vertx vertx, VertxTestContext test) {
    expectResult(vertx, test, version, client -> client.toolsCall("test_reconnection", new JsonObject()),
        new JsonObject().put("content", new JsonArray().add(new JsonObject().put("type", "text")
            .put("text", StreamingTools.RECONNECTION_TEXT))).encode());
  }

  @SessionRevisions
  void greetIsASynchronousTool(String version, Vertx vertx, VertxTestContext test) {
    expectResult(vertx, test, version, client -> client.toolsCall("greet", new JsonObject().put("name", "World")),
        """
        {"content": [{"type": "text", "text": "Hello, World!"}]}
        """);
  }

  private static void expectProgress(Vertx vertx, VertxTestContext test, String version, Object token,
      String text) {
    JsonObject params = new JsonObject().put("name", "test_tool_with_progress").put("arguments", new JsonObject())
        .put("_meta", new JsonObject().put("progressToken", token));
    SuiteProfile.connect(vertx, version)
        .compose(client -> client.call("tools/call", params).map(result -> {
          assertEquals(text, firstText(result));
          List<JsonObject> progress = client.notifications("notifications/progress").stream()
              .map(n -> n.getJsonObject("params")).toList();
          assertEquals(3, progress.size(), progress::toString);
          for (JsonObject p : progress) {
            assertEquals(token, p.getValue("progressToken"));
            assertEquals(100, p.getInteger("total"));
          }
          assertEquals(List.of(0, 50, 100), progress.stream().map(p -> p.getInteger("progress")).toList());
          assertEquals("Completed step 50 of 100", progress.get(1).getString("message"));
          client.assertNoViolations();
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  /** Connects, makes one call, and compares its result with {@code expected} (JSON) as a whole. */
  static void expectResult(Vertx vertx, VertxTestContext test, String version,
      Function<McpTestClient, Future<JsonObject>> call, String expected) {
    SuiteProfile.connect(vertx, version)
        .compose(client -> call.apply(client).map(result -> {
          assertEquals(new JsonObject(expected), result);
          assertFalse(objects(result.getJsonArray("content")).isEmpty());
          client.assertNoViolations();
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }
}
