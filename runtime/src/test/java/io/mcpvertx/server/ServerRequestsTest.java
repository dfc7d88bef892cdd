package io.mcpvertx.server;

import static io.mcpvertx.server.McpTesting.assertNoViolations;
import static io.mcpvertx.server.McpTesting.open;
import static io.mcpvertx.server.McpTesting.stringProperties;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.client.ElicitResult;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** What happens around a server-to-client request: timeouts, limits, error answers, stray responses, close. */
@ExtendWith(VertxExtension.class)
class ServerRequestsTest {

  private static final JsonObject FORMS = new JsonObject().put("elicitation", new JsonObject());

  private static Future<ElicitResult> elicit(RequestContext ctx) {
    return ctx.elicit(ElicitRequest.form("Name?", stringProperties("name")));
  }

  private static JsonObject response(Object id, JsonObject result) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", result);
  }

  @Test
  void failsAndCancelsTheRequestWhenTheClientDoesNotAnswerInTime(Vertx vertx, VertxTestContext test) {
    McpServer server = AskTool.server(vertx, new McpServerOptions().setServerRequestTimeoutMs(200),
        ctx -> elicit(ctx).map(ElicitResult::toJson));
    open(vertx, server, "2025-11-25", FORMS).compose(client -> {
      client.onRequest("elicitation/create", params -> Future.succeededFuture(null));
      return client.call("tools/call", AskTool.call()).compose(result -> {
        assertEquals(-32001, AskTool.failure(result).getInteger("code"));
        return client.awaitNotification("notifications/cancelled");
      }).compose(cancelled -> {
        Object id = client.serverRequests().get(0).getValue("id");
        assertEquals(id, cancelled.getJsonObject("params").getValue("requestId"));
        assertTrue(cancelled.getJsonObject("params").containsKey("reason"));
        // The answer that comes too late is dropped, and the session goes on.
        client.send(response(id, new JsonObject().put("action", "accept")).toBuffer());
        return client.call("ping", null);
      }).map(pong -> {
        assertTrue(client.unmatched().isEmpty(), client.unmatched().toString());
        assertNoViolations(client);
        return pong;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void failsAtOnceBeyondTheLimitOfPendingRequests(Vertx vertx, VertxTestContext test) {
    McpServer server = AskTool.server(vertx, new McpServerOptions().setMaxPendingServerRequests(1), ctx -> {
      Future<ElicitResult> first = elicit(ctx);
      Future<ElicitResult> second = elicit(ctx);
      return second.compose(r -> first).map(ElicitResult::toJson);
    });
    open(vertx, server, "2025-11-25", FORMS).compose(client -> {
      client.onRequest("elicitation/create",
          params -> Future.succeededFuture(new JsonObject().put("action", "decline")));
      return client.call("tools/call", AskTool.call()).compose(result -> {
        assertEquals(-32005, AskTool.failure(result).getInteger("code"));
        assertEquals(1, client.serverRequests().size());
        // The first request was answered meanwhile, so the next call may send one again.
        return client.call("tools/call", AskTool.call());
      }).map(result -> {
        assertEquals(-32005, AskTool.failure(result).getInteger("code"));
        assertEquals(2, client.serverRequests().size());
        assertNoViolations(client);
        return result;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void passesOnAnErrorTheClientAnswered(Vertx vertx, VertxTestContext test) {
    McpServer server = AskTool.server(vertx, ctx -> elicit(ctx).map(ElicitResult::toJson));
    open(vertx, server, "2025-11-25", FORMS).compose(client -> {
      client.onRequest("elicitation/create",
          params -> Future.failedFuture(new IllegalStateException("dialog crashed")));
      return client.call("tools/call", AskTool.call()).map(result -> {
        JsonObject failure = AskTool.failure(result);
        assertEquals(-32603, failure.getInteger("code"));
        assertEquals("dialog crashed", failure.getString("message"));
        assertNoViolations(client);
        return result;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void keepsTheCodeAndDataOfTheClientsError(Vertx vertx, VertxTestContext test) {
    McpServer server = AskTool.server(vertx, ctx -> elicit(ctx).map(ElicitResult::toJson));
    open(vertx, server, "2025-11-25", FORMS).compose(client -> {
      client.onRequest("elicitation/create", params -> {
        Object id = client.serverRequests().get(0).getValue("id");
        client.send(new JsonObject().put("jsonrpc", "2.0").put("id", id).put("error", new JsonObject()
            .put("code", -32602).put("message", "mode not supported").put("data", new JsonObject().put("x", 1)))
            .toBuffer());
        return Future.succeededFuture(null);
      });
      return client.call("tools/call", AskTool.call()).map(result -> {
        JsonObject failure = AskTool.failure(result);
        assertEquals(-32602, failure.getInteger("code"));
        assertEquals("mode not supported", failure.getString("message"));
        assertEquals(new JsonObject().put("x", 1), failure.getJsonObject("data"));
        assertNoViolations(client);
        return result;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void dropsResponsesWithUnknownIdsAndStaysUsable(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx)
        .tool(Tool.builder("t").build(), (args, ctx) -> Future.succeededFuture(ToolResult.text("ok")));
    open(vertx, server, "2025-11-25").compose(client -> {
      client.send(response(4242, new JsonObject()).toBuffer());
      client.send(response("never-sent", new JsonObject().put("action", "accept")).toBuffer());
      client.send(new JsonObject().put("jsonrpc", "2.0").put("id", 77)
          .put("error", new JsonObject().put("code", -1).put("message", "stray")).toBuffer());
      return client.call("tools/call", new JsonObject().put("name", "t")).map(result -> {
        assertEquals("ok", result.getJsonArray("content").getJsonObject(0).getString("text"));
        assertTrue(client.unmatched().isEmpty(), client.unmatched().toString());
        assertTrue(client.notifications().isEmpty(), client.notifications().toString());
        assertNoViolations(client);
        return result;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void failsPendingRequestsWhenTheSessionCloses(Vertx vertx, VertxTestContext test) {
    Promise<Throwable> observed = Promise.promise();
    McpServer server = McpServer.create(vertx).tool(Tool.builder("wait").build(), (args, ctx) -> elicit(ctx)
        .onFailure(observed::tryComplete).map(r -> ToolResult.text("answered")));
    open(vertx, server, "2025-11-25", FORMS).compose(client -> {
      client.onRequest("elicitation/create", params -> {
        client.close();
        return Future.succeededFuture(null);
      });
      client.request("tools/call", new JsonObject().put("name", "wait"));
      return observed.future().map(failure -> {
        assertEquals(-32007, assertInstanceOf(McpException.class, failure).code());
        assertNoViolations(client);
        return failure;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void numbersItsRequestsUniquely(Vertx vertx, VertxTestContext test) {
    McpServer server = AskTool.server(vertx, ctx -> elicit(ctx).compose(a -> elicit(ctx)).map(ElicitResult::toJson));
    open(vertx, server, "2025-11-25", FORMS).compose(client -> {
      client.onRequest("elicitation/create",
          params -> Future.succeededFuture(new JsonObject().put("action", "cancel")));
      return client.call("tools/call", AskTool.call()).compose(r -> client.call("tools/call", AskTool.call()))
          .map(result -> {
            assertEquals(4, client.serverRequests().stream().map(r -> r.getValue("id")).distinct().count());
            assertNoViolations(client);
            return result;
          });
    }).onComplete(test.succeedingThenComplete());
  }
}
