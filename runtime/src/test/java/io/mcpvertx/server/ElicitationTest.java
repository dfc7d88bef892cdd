package io.mcpvertx.server;

import static io.mcpvertx.server.McpTesting.assertNoViolations;
import static io.mcpvertx.server.McpTesting.open;
import static io.mcpvertx.server.McpTesting.stringProperties;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.client.ElicitResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** ctx.elicit in form and URL mode, and its refusal when the client cannot take it. */
@ExtendWith(VertxExtension.class)
class ElicitationTest {

  private static final JsonObject FORM_ONLY = new JsonObject().put("elicitation", new JsonObject());
  private static final JsonObject URL_ONLY = new JsonObject()
      .put("elicitation", new JsonObject().put("url", new JsonObject()));
  private static final JsonObject BOTH = new JsonObject()
      .put("elicitation", new JsonObject().put("form", new JsonObject()).put("url", new JsonObject()));

  private static McpServer formServer(Vertx vertx) {
    return AskTool.server(vertx, ctx -> ctx.elicit(ElicitRequest.form("Who are you?", stringProperties("name")))
        .map(ElicitResult::toJson));
  }

  private static McpServer urlServer(Vertx vertx) {
    return AskTool.server(vertx, ctx -> ctx.elicit(ElicitRequest.url("Connect your account",
        "https://example.com/connect?session=abc", "elic-1")).map(result -> {
          if (result.accepted()) {
            ctx.elicitationComplete("elic-1");
          }
          return result.toJson();
        }));
  }

  @Test
  void asksForAFormAndReturnsTheAnswer(Vertx vertx, VertxTestContext test) {
    AtomicReference<JsonObject> asked = new AtomicReference<>();
    open(vertx, formServer(vertx), "2025-06-18", FORM_ONLY).compose(client -> {
      client.onRequest("elicitation/create", params -> {
        asked.set(params);
        return Future.succeededFuture(new JsonObject().put("action", "accept")
            .put("content", new JsonObject().put("name", "Ada")));
      });
      return client.call("tools/call", AskTool.call()).map(result -> {
        assertEquals(new JsonObject().put("action", "accept").put("content", new JsonObject().put("name", "Ada")),
            AskTool.answer(result));
        assertEquals("Who are you?", asked.get().getString("message"));
        assertEquals(stringProperties("name"), asked.get().getJsonObject("requestedSchema"));
        assertFalse(asked.get().containsKey("mode"), "form mode may omit mode, so 2025-06-18 clients read it");
        assertNoViolations(client);
        return result;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void asksForAFormOn20251125WhenTheClientDeclaredForms(Vertx vertx, VertxTestContext test) {
    open(vertx, formServer(vertx), "2025-11-25", BOTH).compose(client -> {
      client.onRequest("elicitation/create",
          params -> Future.succeededFuture(new JsonObject().put("action", "decline")));
      return client.call("tools/call", AskTool.call()).map(result -> {
        assertEquals(new JsonObject().put("action", "decline"), AskTool.answer(result));
        assertNoViolations(client);
        return result;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void sendsTheUserToAUrlAndSaysWhenTheInteractionCompleted(Vertx vertx, VertxTestContext test) {
    AtomicReference<JsonObject> asked = new AtomicReference<>();
    open(vertx, urlServer(vertx), "2025-11-25", URL_ONLY).compose(client -> {
      client.onRequest("elicitation/create", params -> {
        asked.set(params);
        return Future.succeededFuture(new JsonObject().put("action", "accept"));
      });
      return client.call("tools/call", AskTool.call())
          .compose(result -> {
            assertEquals(new JsonObject().put("action", "accept"), AskTool.answer(result));
            assertEquals(new JsonObject().put("mode", "url").put("message", "Connect your account")
                .put("url", "https://example.com/connect?session=abc").put("elicitationId", "elic-1"), asked.get());
            return client.awaitNotification("notifications/elicitation/complete");
          }).map(complete -> {
            assertEquals("elic-1", complete.getJsonObject("params").getString("elicitationId"));
            assertNoViolations(client);
            return complete;
          });
    }).onComplete(test.succeedingThenComplete());
  }

  /** Calls the ask tool on a client that has no elicitation handler, and yields the reported failure. */
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
  void refusesUrlModeWhenTheClientDeclaredOnlyForms(Vertx vertx, VertxTestContext test) {
    refused(vertx, urlServer(vertx), "2025-11-25", FORM_ONLY).map(required -> {
      assertTrue(required.getJsonObject("elicitation").containsKey("url"), required.encode());
      return required;
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void refusesUrlModeBefore20251125(Vertx vertx, VertxTestContext test) {
    refused(vertx, urlServer(vertx), "2025-06-18", BOTH).onComplete(test.succeedingThenComplete());
  }

  @Test
  void refusesFormModeWhenTheClientDeclaredOnlyUrls(Vertx vertx, VertxTestContext test) {
    refused(vertx, formServer(vertx), "2025-11-25", URL_ONLY).map(required -> {
      assertTrue(required.containsKey("elicitation"), required.encode());
      return required;
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void refusesElicitationWhenTheClientDeclaredNone(Vertx vertx, VertxTestContext test) {
    refused(vertx, formServer(vertx), "2025-06-18", new JsonObject()).map(required -> {
      assertEquals(new JsonObject().put("elicitation", new JsonObject()), required);
      return required;
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void refusesElicitationOn20250326WhichHasNone(Vertx vertx, VertxTestContext test) {
    refused(vertx, formServer(vertx), "2025-03-26", FORM_ONLY).onComplete(test.succeedingThenComplete());
  }

  @Test
  void sendsNoElicitationCompleteBefore20251125(Vertx vertx, VertxTestContext test) {
    McpServer server = AskTool.server(vertx, ctx -> {
      ctx.elicitationComplete("elic-9");
      return Future.succeededFuture("done");
    });
    open(vertx, server, "2025-06-18").compose(client -> client.call("tools/call", AskTool.call()).map(result -> {
      assertEquals("done", AskTool.answer(result));
      assertTrue(client.notifications().isEmpty(), client.notifications().toString());
      assertNoViolations(client);
      return result;
    })).onComplete(test.succeedingThenComplete());
  }
}
