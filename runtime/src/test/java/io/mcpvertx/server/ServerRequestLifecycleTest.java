package io.mcpvertx.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Server-to-client requests follow the lifecycle of the session and of the request they serve. */
@ExtendWith(VertxExtension.class)
class ServerRequestLifecycleTest {

  private static final JsonObject ELICITATION = new JsonObject().put("elicitation", new JsonObject());

  @Test
  void cancellingARequestWithdrawsTheElicitationItWasWaitingFor(Vertx vertx, VertxTestContext test) {
    AtomicReference<Throwable> elicitFailure = new AtomicReference<>();
    Promise<Void> elicitFailed = Promise.promise();
    McpServer server = AskTool.server(vertx, ctx -> ctx.elicit(ElicitRequest.form("name?",
            new JsonObject().put("type", "object").put("properties", new JsonObject())))
        .onFailure(e -> {
          elicitFailure.set(e);
          elicitFailed.complete();
        }));
    McpTestClient.inProcess(vertx, server).compose(client -> client.initialize("2025-11-25", ELICITATION)
        .compose(init -> client.call("ping", null))
        .compose(pong -> {
          // Never answer the elicitation: only the cancellation can end it.
          client.onRequest("elicitation/create", params -> Future.succeededFuture(null));
          long id = client.nextRequestId();
          client.request("tools/call", AskTool.call());
          return waitForServerRequest(vertx, client).map(x -> id);
        })
        .compose(id -> {
          client.notify("notifications/cancelled", new JsonObject().put("requestId", id).put("reason", "user"));
          return elicitFailed.future().compose(v -> client.awaitNotification("notifications/cancelled"));
        })
        .map(cancelled -> {
          Object elicitationId = client.serverRequests().get(0).getValue("id");
          assertEquals(elicitationId, cancelled.getJsonObject("params").getValue("requestId"));
          assertTrue(elicitFailure.get().getMessage().contains("cancelled"), elicitFailure.get().getMessage());
          assertTrue(client.violations().isEmpty(), client.violations().toString());
          return null;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void refusesServerRequestsBeforeTheClientSaysItIsInitialized(Vertx vertx, VertxTestContext test) {
    McpServer server = AskTool.server(vertx, ctx -> ctx.elicit(ElicitRequest.form("name?",
        new JsonObject().put("type", "object").put("properties", new JsonObject()))));
    McpTestClient.inProcess(vertx, server).compose(client -> client.request("initialize", new JsonObject()
            .put("protocolVersion", "2025-11-25").put("capabilities", ELICITATION)
            .put("clientInfo", new JsonObject().put("name", "t").put("version", "1")))
        .compose(init -> client.call("tools/call", AskTool.call()))
        .map(result -> {
          JsonObject failure = AskTool.failure(result);
          assertEquals(JsonRpcErrorCodes.INVALID_REQUEST, failure.getInteger("code"));
          assertTrue(failure.getString("message").contains("notifications/initialized"));
          assertTrue(client.serverRequests().isEmpty());
          return null;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  private static Future<Void> waitForServerRequest(Vertx vertx, McpTestClient client) {
    Promise<Void> seen = Promise.promise();
    long timer = vertx.setPeriodic(5, t -> {
      if (!client.serverRequests().isEmpty()) {
        vertx.cancelTimer(t);
        seen.tryComplete();
      }
    });
    return seen.future().onComplete(v -> vertx.cancelTimer(timer));
  }
}
