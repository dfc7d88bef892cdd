package io.mcpvertx.server;

import static io.mcpvertx.server.McpTesting.assertNoViolations;
import static io.mcpvertx.server.McpTesting.open;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.client.Root;
import io.mcpvertx.server.client.SamplingRequest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** ctx.sample and ctx.roots, and their refusal when the client did not declare the capability. */
@ExtendWith(VertxExtension.class)
class SamplingAndRootsTest {

  private static final JsonObject SAMPLING = new JsonObject().put("sampling", new JsonObject());
  private static final JsonObject SAMPLING_TOOLS = new JsonObject()
      .put("sampling", new JsonObject().put("tools", new JsonObject()));

  private static final JsonObject MODEL_ANSWER = new JsonObject().put("role", "assistant")
      .put("content", new JsonObject().put("type", "text").put("text", "Paris"))
      .put("model", "test-model").put("stopReason", "endTurn");

  private static McpServer samplingServer(Vertx vertx) {
    return AskTool.server(vertx, ctx -> ctx.sample(SamplingRequest.prompt("Capital of France?", 50))
        .map(result -> result.text() + " from " + result.model()));
  }

  private static McpServer toolSamplingServer(Vertx vertx) {
    JsonObject weather = new JsonObject().put("name", "weather")
        .put("inputSchema", new JsonObject().put("type", "object"));
    SamplingRequest request = new SamplingRequest(SamplingRequest.prompt("Weather in Paris?", 50).params().copy()
        .put("tools", new JsonArray().add(weather)).put("toolChoice", new JsonObject().put("mode", "auto")));
    return AskTool.server(vertx, ctx -> ctx.sample(request).map(result -> result.stopReason()));
  }

  private static McpServer rootsServer(Vertx vertx) {
    return AskTool.server(vertx, ctx -> ctx.roots().map(roots -> {
      JsonArray names = new JsonArray();
      for (Root root : roots) {
        names.add(root.uri() + " " + root.name());
      }
      return names;
    }));
  }

  @Test
  void asksTheClientsModelForAMessage(Vertx vertx, VertxTestContext test) {
    AtomicReference<JsonObject> asked = new AtomicReference<>();
    open(vertx, samplingServer(vertx), "2025-06-18", SAMPLING).compose(client -> {
      client.onRequest("sampling/createMessage", params -> {
        asked.set(params);
        return Future.succeededFuture(MODEL_ANSWER);
      });
      return client.call("tools/call", AskTool.call()).map(result -> {
        assertEquals("Paris from test-model", AskTool.answer(result));
        assertEquals(50, asked.get().getInteger("maxTokens"));
        assertEquals("Capital of France?", asked.get().getJsonArray("messages").getJsonObject(0)
            .getJsonObject("content").getString("text"));
        assertNoViolations(client);
        return result;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void offersToolsToAClientThatDeclaredSamplingTools(Vertx vertx, VertxTestContext test) {
    AtomicReference<JsonObject> asked = new AtomicReference<>();
    open(vertx, toolSamplingServer(vertx), "2025-11-25", SAMPLING_TOOLS).compose(client -> {
      client.onRequest("sampling/createMessage", params -> {
        asked.set(params);
        return Future.succeededFuture(MODEL_ANSWER.copy().put("stopReason", "toolUse"));
      });
      return client.call("tools/call", AskTool.call()).map(result -> {
        assertEquals("toolUse", AskTool.answer(result));
        assertEquals("weather", asked.get().getJsonArray("tools").getJsonObject(0).getString("name"));
        assertEquals("auto", asked.get().getJsonObject("toolChoice").getString("mode"));
        assertNoViolations(client);
        return result;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  private static Future<JsonObject> refused(Vertx vertx, McpServer server, String version, JsonObject caps) {
    return open(vertx, server, version, caps).compose(client -> client.call("tools/call", AskTool.call())
        .map(result -> {
          JsonObject failure = AskTool.failure(result);
          assertEquals(-32021, failure.getInteger("code"), failure.encode());
          assertTrue(client.serverRequests().isEmpty(), "nothing may be sent to a client that cannot take it");
          assertNoViolations(client);
          return failure.getJsonObject("data").getJsonObject("requiredCapabilities");
        }));
  }

  @Test
  void refusesToolsToAClientWithoutSamplingTools(Vertx vertx, VertxTestContext test) {
    refused(vertx, toolSamplingServer(vertx), "2025-11-25", SAMPLING).map(required -> {
      assertEquals(new JsonObject().put("sampling", new JsonObject().put("tools", new JsonObject())), required);
      return required;
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void refusesToolsBefore20251125EvenWhenDeclared(Vertx vertx, VertxTestContext test) {
    refused(vertx, toolSamplingServer(vertx), "2025-06-18", SAMPLING_TOOLS).onComplete(test.succeedingThenComplete());
  }

  @Test
  void refusesSamplingToAClientWithoutSampling(Vertx vertx, VertxTestContext test) {
    refused(vertx, samplingServer(vertx), "2025-11-25", new JsonObject().put("roots", new JsonObject()))
        .map(required -> {
          assertEquals(new JsonObject().put("sampling", new JsonObject()), required);
          return required;
        }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void listsTheClientsRoots(Vertx vertx, VertxTestContext test) {
    JsonObject caps = new JsonObject().put("roots", new JsonObject().put("listChanged", true));
    open(vertx, rootsServer(vertx), "2025-03-26", caps).compose(client -> {
      client.onRequest("roots/list", params -> Future.succeededFuture(new JsonObject().put("roots", new JsonArray()
          .add(new JsonObject().put("uri", "file:///home/ada/project").put("name", "project"))
          .add(new JsonObject().put("uri", "file:///tmp")))));
      return client.call("tools/call", AskTool.call()).map(result -> {
        assertEquals(new JsonArray().add("file:///home/ada/project project").add("file:///tmp null"),
            AskTool.answer(result));
        assertEquals("roots/list", client.serverRequests().get(0).getString("method"));
        assertNoViolations(client);
        return result;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void refusesRootsToAClientWithoutRoots(Vertx vertx, VertxTestContext test) {
    refused(vertx, rootsServer(vertx), "2025-11-25", SAMPLING).map(required -> {
      assertEquals(new JsonObject().put("roots", new JsonObject()), required);
      return required;
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void tellsTheApplicationWhenTheClientsRootsChange(Vertx vertx, VertxTestContext test) {
    McpServer server = rootsServer(vertx);
    AtomicReference<McpSession> changed = new AtomicReference<>();
    server.rootsChangedHandler(changed::set);
    JsonObject caps = new JsonObject().put("roots", new JsonObject().put("listChanged", true));
    open(vertx, server, "2025-11-25", caps).compose(client -> {
      client.notify("notifications/roots/list_changed", null);
      return client.call("ping", null).map(p -> {
        assertEquals(client.session(), changed.get());
        assertNoViolations(client);
        return p;
      });
    }).onComplete(test.succeedingThenComplete());
  }
}
