package io.mcpvertx.verticles.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Checkpoint;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class McpEventBusTest {

  private static List<Object> everyKind() {
    JsonRpcRequest request = new JsonRpcRequest(JsonRpcId.of(1), "tools/list", new JsonObject());
    return List.of(
        request,
        new JsonRpcNotification("notifications/initialized", null),
        new JsonRpcResponse(JsonRpcId.of("a"), new JsonObject().put("ok", true)),
        new JsonRpcErrorResponse(null, new JsonRpcError(JsonRpcErrorCodes.PARSE_ERROR, "Parse error")),
        new SessionBatch(List.of(new Decoded.Message(request), new Decoded.Invalid(new JsonRpcErrorResponse(null,
            new JsonRpcError(JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request"))))));
  }

  @Test
  void registeringTheCodecsTwiceIsHarmless(Vertx vertx) {
    McpEventBus.registerCodecs(vertx);
    McpEventBus.registerCodecs(vertx);
  }

  @Test
  void everyKindOfMessageArrivesAsTheSameInstanceOnALocalBus(Vertx vertx, VertxTestContext test) {
    McpEventBus.registerCodecs(vertx);
    McpEventBus.registerCodecs(vertx);
    List<Object> messages = everyKind();
    Checkpoint received = test.checkpoint(messages.size());
    EventBus bus = vertx.eventBus();
    for (int i = 0; i < messages.size(); i++) {
      Object sent = messages.get(i);
      String address = "test.kind." + i;
      bus.consumer(address, m -> test.verify(() -> {
        assertSame(sent, m.body());
        received.flag();
      })).completion().onComplete(test.succeeding(v -> bus.send(address, sent)));
    }
  }

  @Test
  void aPublishedMessageReachesEveryConsumerAsTheSameInstance(Vertx vertx, VertxTestContext test) {
    McpEventBus.registerCodecs(vertx);
    JsonRpcNotification notification = new JsonRpcNotification("notifications/tools/list_changed", null);
    Checkpoint received = test.checkpoint(2);
    EventBus bus = vertx.eventBus();
    Future.all(
            bus.consumer("test.publish", m -> test.verify(() -> {
              assertSame(notification, m.body());
              received.flag();
            })).completion(),
            bus.consumer("test.publish", m -> test.verify(() -> {
              assertSame(notification, m.body());
              received.flag();
            })).completion())
        .onComplete(test.succeeding(v -> bus.publish("test.publish", notification)));
  }

  @Test
  void aReplyCarriesAMessageAsTheSameInstance(Vertx vertx, VertxTestContext test) {
    McpEventBus.registerCodecs(vertx);
    JsonRpcRequest request = new JsonRpcRequest(JsonRpcId.of(5), "ping", null);
    JsonRpcResponse response = new JsonRpcResponse(JsonRpcId.of(5), new JsonObject());
    EventBus bus = vertx.eventBus();
    bus.<JsonRpcRequest>consumer("test.ping", m -> m.reply(response)).completion()
        .compose(v -> bus.<JsonRpcResponse>request("test.ping", request))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertSame(response, reply.body());
          test.completeNow();
        })));
  }

  @Test
  void eachSessionHasItsOwnAddress() {
    assertEquals(McpEventBus.sessionAddress("a"), McpEventBus.sessionAddress("a"));
    assertNotEquals(McpEventBus.sessionAddress("a"), McpEventBus.sessionAddress("b"));
  }
}
