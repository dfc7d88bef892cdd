package io.mcpvertx.verticles.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.verticles.bus.McpEventBus;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A front that did not get the owner's acknowledgement in time holds the request and sends it again once the
 * session "moved", sometimes to the owner that had taken it after all: over the bus, or straight to the verticle
 * when the session now runs in the front's JVM. The owner knows that second delivery by its exchange stream and
 * drops it: the request runs once, answered once, never refused as an id in use.
 */
@ExtendWith(VertxExtension.class)
class SessionRedeliveryTest {

  private static final String LATEST = "2025-11-25";

  @Test
  void aRequestDeliveredAgainForTheSameStreamRunsOnceAndIsAnsweredOnce(Vertx vertx, VertxTestContext test) {
    McpEventBus.registerCodecs(vertx);
    Promise<Void> gate = Promise.promise();
    List<String> runs = new CopyOnWriteArrayList<>();
    McpServer server = McpServer.create(vertx).tool(Tool.builder("gated").build(), (args, ctx) -> {
      runs.add("run");
      return gate.future().map(v -> ToolResult.text("released"));
    });
    SessionVerticle session = new SessionVerticle(server, "redelivered", "test.default.redelivered", null);
    String replyTo = "test.reply.redelivered";
    String stream = "stream-1";
    List<JsonRpcMessage> overTheBus = new CopyOnWriteArrayList<>();
    List<JsonRpcMessage> straight = new CopyOnWriteArrayList<>();
    MessageSink local = straight::add;
    Promise<Void> answered = Promise.promise();
    vertx.eventBus().<Object>consumer(replyTo, m -> {
      overTheBus.add((JsonRpcMessage) m.body());
      if (m.body() instanceof JsonRpcResponse) {
        answered.tryComplete();
      }
    });
    JsonRpcRequest call = new JsonRpcRequest(JsonRpcId.of(4), "tools/call", new JsonObject().put("name", "gated"));
    DeliveryOptions options = new DeliveryOptions().addHeader(McpEventBus.REPLY_TO, replyTo)
        .addHeader(McpEventBus.STREAM, stream);
    String address = McpEventBus.sessionAddress("redelivered");
    vertx.deployVerticle(session)
        .compose(id -> {
          List<JsonRpcMessage> setup = new CopyOnWriteArrayList<>();
          Promise<Void> initialized = Promise.promise();
          session.deliver(new JsonRpcRequest(JsonRpcId.of(0), "initialize", new JsonObject()
              .put("protocolVersion", LATEST).put("capabilities", new JsonObject())
              .put("clientInfo", new JsonObject().put("name", "t").put("version", "1"))), setup::add, null);
          session.deliver(new JsonRpcNotification("notifications/initialized", null), setup::add,
              () -> initialized.complete());
          return initialized.future();
        })
        // The first delivery, acknowledged once taken; then the same exchange's request again, both ways.
        .compose(v -> vertx.eventBus().request(address, call, options))
        .compose(ack -> vertx.eventBus().request(address, call, options))
        .compose(ack -> {
          session.redeliver(call, local, stream);
          // Behind the redelivery on the session's context: by then it has been handled (or dropped).
          Promise<Void> behind = Promise.promise();
          session.deliver(new JsonRpcRequest(JsonRpcId.of(5), "ping", null), local, () -> behind.complete());
          return behind.future();
        })
        .compose(v -> {
          gate.complete();
          return answered.future();
        })
        .compose(v -> vertx.timer(100))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          assertEquals(List.of("run"), runs, "the request ran once");
          assertEquals(1, overTheBus.size(), () -> "one answer to the exchange: " + overTheBus);
          JsonRpcResponse response = assertInstanceOf(JsonRpcResponse.class, overTheBus.get(0));
          assertEquals(JsonRpcId.of(4), response.id());
          // Only the ping's answer came straight: no refusal of the redelivered request.
          assertEquals(1, straight.size(), () -> "answers delivered straight: " + straight);
          assertEquals(JsonRpcId.of(5), assertInstanceOf(JsonRpcResponse.class, straight.get(0)).id());
          test.completeNow();
        })));
  }
}
