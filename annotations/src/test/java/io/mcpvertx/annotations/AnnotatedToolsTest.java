package io.mcpvertx.annotations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Annotated tools called over both generations: arguments bound, values converted, failures mapped. */
@ExtendWith(VertxExtension.class)
class AnnotatedToolsTest {

  private McpServer server;

  @BeforeEach
  void setUp(Vertx vertx) {
    server = McpServer.create(vertx);
    AnnotatedFeatures.register(server, new CallTools());
  }

  private static JsonObject place() {
    return new JsonObject().put("latitude", 48.1).put("longitude", 11.6);
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-06-18", "2025-11-25", Wires.STATELESS})
  void bindsTypedArgumentsAndAnswersWithStructuredContentAndItsText(String version, Vertx vertx,
      VertxTestContext test) {
    JsonObject args = new JsonObject().put("place", place()).put("offset", 2);
    Wires.call(vertx, server, version, "weather", args).onComplete(test.succeeding(result -> test.verify(() -> {
      JsonObject structured = result.getJsonObject("structuredContent");
      assertEquals(23.5, structured.getDouble("temperature"));
      assertEquals("CELSIUS", structured.getString("unit"), "the default applies when the argument is absent");
      assertEquals(place(), structured.getJsonObject("place"), "an empty Optional member is left out");
      assertEquals(structured, new JsonObject(Wires.text(result)), "the same JSON as text for older clients");
      test.completeNow();
    })));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-03-26", "2025-06-18", Wires.STATELESS})
  void returnsTextFuturesNothingResultsBlocksAndJson(String version, Vertx vertx, VertxTestContext test) {
    Wires.call(vertx, server, version, "greet", new JsonObject().put("name", "Ada"))
        .map(Wires.check(result -> assertEquals("Hello, Ada!", Wires.text(result))))
        .compose(v -> Wires.call(vertx, server, version, "later", new JsonObject().put("text", "soon")))
        .map(Wires.check(result -> assertEquals("SOON", Wires.text(result))))
        .compose(v -> Wires.call(vertx, server, version, "nothing", new JsonObject()))
        .map(Wires.check(result -> assertEquals(new JsonArray(), result.getJsonArray("content"))))
        .compose(v -> Wires.call(vertx, server, version, "result", new JsonObject()))
        .map(Wires.check(result -> {
          assertEquals("as is", Wires.text(result));
          assertTrue(result.getJsonObject("_meta").getBoolean("kept"));
        }))
        .compose(v -> Wires.call(vertx, server, version, "blocks", new JsonObject()))
        .map(Wires.check(result -> assertEquals(2, result.getJsonArray("content").size())))
        .compose(v -> Wires.call(vertx, server, version, "count", new JsonObject().put("items",
            new JsonArray().add("a").add("b"))))
        .map(Wires.check(result -> assertEquals("2", Wires.text(result))))
        .compose(v -> Wires.call(vertx, server, version, "context", new JsonObject()))
        .onComplete(test.succeeding(result -> test.verify(() -> {
          assertEquals(version, Wires.text(result), "the RequestContext is injected");
          test.completeNow();
        })));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", Wires.STATELESS})
  void mapsProtocolErrorsToolFailuresAndBugs(String version, Vertx vertx, VertxTestContext test) {
    JsonObject none = new JsonObject();
    Wires.request(vertx, server, version, "tools/call", new JsonObject().put("name", "protocolError"))
        .map(Wires.check(response -> assertEquals(-32602, response.getJsonObject("error").getInteger("code"))))
        .compose(v -> Wires.request(vertx, server, version, "tools/call", new JsonObject().put("name",
            "failedFuture")))
        .map(Wires.check(response -> assertEquals("no such city either", response.getJsonObject("error").getString("message"))))
        .compose(v -> Wires.call(vertx, server, version, "toolFailure", none))
        .map(Wires.check(result -> {
          assertTrue(result.getBoolean("isError"));
          assertEquals("The station is offline; try another one.", Wires.text(result));
        }))
        .compose(v -> Wires.call(vertx, server, version, "bug", none))
        .map(Wires.check(result -> {
          assertTrue(result.getBoolean("isError"));
          assertFalse(result.encode().contains("secret"), "no internals reach the client: " + result.encode());
          assertFalse(result.encode().contains("IllegalStateException"), result.encode());
        }))
        .compose(v -> Wires.call(vertx, server, version, "blockingBug", none))
        .onComplete(test.succeeding(result -> test.verify(() -> {
          assertTrue(result.getBoolean("isError"));
          assertFalse(result.encode().contains("disk detail"), result.encode());
          test.completeNow();
        })));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", Wires.STATELESS})
  void aBlockingMethodRunsOffTheEventLoopAndAnotherOnIt(String version, Vertx vertx, VertxTestContext test) {
    Wires.call(vertx, server, version, "whereBlocking", new JsonObject())
        .map(Wires.check(result -> assertEquals("off-loop", Wires.text(result))))
        .compose(v -> Wires.call(vertx, server, version, "whereDirect", new JsonObject()))
        .onComplete(test.succeeding(result -> test.verify(() -> {
          assertEquals("event-loop", Wires.text(result));
          test.completeNow();
        })));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", Wires.STATELESS})
  void theValidatorStaysTheGate(String version, Vertx vertx, VertxTestContext test) {
    JsonObject wrong = new JsonObject().put("place", new JsonObject().put("latitude", "north"));
    Wires.request(vertx, server, version, "tools/call", new JsonObject().put("name", "weather")
        .put("arguments", wrong)).onComplete(test.succeeding(response -> test.verify(() -> {
          JsonObject result = response.getJsonObject("result");
          JsonObject error = response.getJsonObject("error");
          assertTrue(error != null && error.getInteger("code") == -32602
              || result != null && result.getBoolean("isError", false), response::encode);
          assertNull(result == null ? null : result.getJsonObject("structuredContent"));
          test.completeNow();
        })));
  }
}
