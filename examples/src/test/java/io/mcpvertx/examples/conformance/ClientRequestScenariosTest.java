package io.mcpvertx.examples.conformance;

import static io.mcpvertx.examples.conformance.ConformanceFixturesTest.firstText;
import static io.mcpvertx.examples.conformance.SuiteProfile.LATEST;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The scenarios whose tool asks the client something: {@code tools-call-sampling}, {@code tools-call-elicitation},
 * {@code elicitation-sep1034-defaults} and {@code elicitation-sep1330-enums}. The client answers exactly as the
 * suite's client does, and each test checks the request the server sent as the scenario does.
 */
@ExtendWith(VertxExtension.class)
class ClientRequestScenariosTest {

  private static final String SAMPLING_ANSWER = """
      {"role": "assistant", "content": {"type": "text", "text": "This is a test response from the client"},
       "model": "test-model", "stopReason": "endTurn"}
      """;

  @SessionRevisions
  void samplingSendsTheSuitesMessageAndReportsTheAnswer(String version, Vertx vertx, VertxTestContext test) {
    List<JsonObject> requests = new CopyOnWriteArrayList<>();
    SuiteProfile.connect(vertx, version, SuiteProfile.capabilities(),
            client -> client.onRequest("sampling/createMessage", answer(requests, SAMPLING_ANSWER)))
        .compose(client -> client.toolsCall("test_sampling", new JsonObject().put("prompt", "Test prompt for sampling"))
            .map(result -> {
              assertEquals(1, requests.size());
              assertEquals(new JsonObject("""
                  {"messages": [{"role": "user", "content": {"type": "text", "text": "Test prompt for sampling"}}],
                   "maxTokens": 100}
                  """), requests.get(0));
              assertEquals("LLM response: This is a test response from the client", firstText(result));
              assertFalse(result.getBoolean("isError", false));
              client.assertNoViolations();
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void samplingWithoutTheCapabilityIsAToolError(Vertx vertx, VertxTestContext test) {
    SuiteProfile.connect(vertx, LATEST, new JsonObject().put("elicitation", new JsonObject()), client -> {
        })
        .compose(client -> client.toolsCall("test_sampling", new JsonObject().put("prompt", "hi")).map(result -> {
          assertEquals(true, result.getBoolean("isError"));
          assertTrue(firstText(result).startsWith("Sampling failed: "), firstText(result));
          assertEquals(List.of(), client.serverRequests());
          client.assertNoViolations();
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @SessionRevisions
  void elicitationAsksForTheFieldsTheSuiteAnswers(String version, Vertx vertx, VertxTestContext test) {
    List<JsonObject> requests = new CopyOnWriteArrayList<>();
    SuiteProfile.connect(vertx, version, SuiteProfile.capabilities(), client -> client.onRequest("elicitation/create",
            answer(requests, """
                {"action": "accept", "content": {"username": "testuser", "email": "test@example.com"}}
                """)))
        .compose(client -> client.toolsCall("test_elicitation",
            new JsonObject().put("message", "Please provide your information")).map(result -> {
              assertEquals(1, requests.size());
              JsonObject request = requests.get(0);
              assertEquals("Please provide your information", request.getString("message"));
              assertFalse(request.containsKey("mode"));
              JsonObject schema = request.getJsonObject("requestedSchema");
              assertEquals("object", schema.getString("type"));
              assertEquals(new JsonArray().add("username").add("email"), schema.getJsonArray("required"));
              assertEquals("string", schema.getJsonObject("properties").getJsonObject("username").getString("type"));
              assertEquals("string", schema.getJsonObject("properties").getJsonObject("email").getString("type"));
              assertEquals("User response: action=accept, content={\"username\":\"testuser\","
                  + "\"email\":\"test@example.com\"}", firstText(result));
              client.assertNoViolations();
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void declinedElicitationIsReportedWithEmptyContent(Vertx vertx, VertxTestContext test) {
    SuiteProfile.connect(vertx, LATEST, SuiteProfile.capabilities(),
            client -> client.onRequest("elicitation/create", params -> Future.succeededFuture(
                new JsonObject().put("action", "decline"))))
        .compose(client -> client.toolsCall("test_elicitation", new JsonObject().put("message", "Who are you?"))
            .map(result -> {
              assertEquals("User response: action=decline, content={}", firstText(result));
              client.assertNoViolations();
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @SessionRevisions
  void sep1034DefaultsCoverEveryPrimitiveType(String version, Vertx vertx, VertxTestContext test) {
    List<JsonObject> requests = new CopyOnWriteArrayList<>();
    String answer = """
        {"action": "accept",
         "content": {"name": "Jane Smith", "age": 25, "score": 88.0, "status": "inactive", "verified": false}}
        """;
    SuiteProfile.connect(vertx, version, SuiteProfile.capabilities(),
            client -> client.onRequest("elicitation/create", answer(requests, answer)))
        .compose(client -> client.toolsCall("test_elicitation_sep1034_defaults", new JsonObject()).map(result -> {
          assertEquals(1, requests.size());
          assertEquals("Please review and update the form fields with defaults", requests.get(0).getString("message"));
          JsonObject fields = requests.get(0).getJsonObject("requestedSchema").getJsonObject("properties");
          assertField(fields, "name", "string", "John Doe");
          assertField(fields, "age", "integer", 30);
          assertField(fields, "score", "number", 95.5);
          assertField(fields, "status", "string", "active");
          assertTrue(fields.getJsonObject("status").getJsonArray("enum").contains("active"));
          assertField(fields, "verified", "boolean", true);
          assertEquals("Elicitation completed: action=accept, content="
              + new JsonObject(answer).getJsonObject("content").encode(), firstText(result));
          client.assertNoViolations();
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void sep1330EnumsOfferTheFiveEnumShapes(Vertx vertx, VertxTestContext test) {
    List<JsonObject> requests = new CopyOnWriteArrayList<>();
    String answer = """
        {"action": "accept", "content": {"untitledSingle": "option1", "titledSingle": "value1",
         "legacyEnum": "opt1", "untitledMulti": ["option1", "option2"], "titledMulti": ["value1", "value2"]}}
        """;
    SuiteProfile.connect(vertx, LATEST, SuiteProfile.capabilities(),
            client -> client.onRequest("elicitation/create", answer(requests, answer)))
        .compose(client -> client.toolsCall("test_elicitation_sep1330_enums", new JsonObject()).map(result -> {
          assertEquals(1, requests.size());
          assertEquals("Please select options from the enum fields", requests.get(0).getString("message"));
          JsonObject fields = requests.get(0).getJsonObject("requestedSchema").getJsonObject("properties");

          JsonObject untitledSingle = fields.getJsonObject("untitledSingle");
          assertEquals("string", untitledSingle.getString("type"));
          assertInstanceOf(JsonArray.class, untitledSingle.getValue("enum"));
          assertFalse(untitledSingle.containsKey("oneOf") || untitledSingle.containsKey("enumNames"));

          JsonObject titledSingle = fields.getJsonObject("titledSingle");
          assertEquals("string", titledSingle.getString("type"));
          assertConstTitlePairs(titledSingle.getJsonArray("oneOf"));
          assertFalse(titledSingle.containsKey("enum"));

          JsonObject legacy = fields.getJsonObject("legacyEnum");
          assertEquals("string", legacy.getString("type"));
          assertEquals(legacy.getJsonArray("enum").size(), legacy.getJsonArray("enumNames").size());

          JsonObject untitledMulti = fields.getJsonObject("untitledMulti");
          assertEquals("array", untitledMulti.getString("type"));
          assertEquals("string", untitledMulti.getJsonObject("items").getString("type"));
          assertInstanceOf(JsonArray.class, untitledMulti.getJsonObject("items").getValue("enum"));
          assertFalse(untitledMulti.getJsonObject("items").containsKey("anyOf"));

          JsonObject titledMulti = fields.getJsonObject("titledMulti");
          assertEquals("array", titledMulti.getString("type"));
          assertConstTitlePairs(titledMulti.getJsonObject("items").getJsonArray("anyOf"));
          assertFalse(titledMulti.getJsonObject("items").containsKey("enum"));

          assertEquals("Elicitation completed: action=accept, content="
              + new JsonObject(answer).getJsonObject("content").encode(), firstText(result));
          client.assertNoViolations();
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  /** 2025-06-18 forms cannot carry titled or multi-select enums, so the tool says so instead of asking. */
  @Test
  void sep1330EnumsIsAToolErrorBefore20251125(Vertx vertx, VertxTestContext test) {
    SuiteProfile.connect(vertx, "2025-06-18")
        .compose(client -> client.toolsCall("test_elicitation_sep1330_enums", new JsonObject()).map(result -> {
          assertEquals(true, result.getBoolean("isError"));
          assertTrue(firstText(result).contains("2025-11-25"), firstText(result));
          assertEquals(List.of(), client.serverRequests());
          client.assertNoViolations();
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  /** A missing required argument is a tool error from 2025-11-25 on, a protocol error before. */
  @SessionRevisions
  void samplingWithoutAPromptIsRejectedBeforeAsking(String version, Vertx vertx, VertxTestContext test) {
    SuiteProfile.connect(vertx, version)
        .compose(client -> client.request("tools/call", new JsonObject().put("name", "test_sampling")
            .put("arguments", new JsonObject())).map(response -> {
              if (version.equals(LATEST)) {
                assertEquals(true, response.getJsonObject("result").getBoolean("isError"));
              } else {
                assertEquals(-32602, response.getJsonObject("error").getInteger("code"));
              }
              assertEquals(List.of(), client.serverRequests());
              client.assertNoViolations();
              return response;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  /** Records each request's params and answers with {@code result}. */
  private static Function<JsonObject, Future<JsonObject>> answer(List<JsonObject> requests, String result) {
    return params -> {
      requests.add(params);
      return Future.succeededFuture(new JsonObject(result));
    };
  }

  private static void assertField(JsonObject fields, String name, String type, Object defaultValue) {
    JsonObject field = fields.getJsonObject(name);
    assertEquals(type, field.getString("type"), name);
    assertEquals(defaultValue, field.getValue("default"), name);
  }

  private static void assertConstTitlePairs(JsonArray options) {
    assertFalse(options.isEmpty());
    for (Object option : options) {
      JsonObject pair = (JsonObject) option;
      assertInstanceOf(String.class, pair.getValue("const"));
      assertInstanceOf(String.class, pair.getValue("title"));
    }
  }
}
