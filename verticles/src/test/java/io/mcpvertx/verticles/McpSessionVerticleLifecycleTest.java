package io.mcpvertx.verticles;

import static io.mcpvertx.verticles.BusClient.last;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.impl.McpServerImpl;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.verticles.bus.McpEventBus;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Checkpoint;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class McpSessionVerticleLifecycleTest {

  private static final String LATEST = "2025-11-25";

  /** A server whose tool "hold" starts, reports through {@code started}, and finishes when {@code release} does. */
  private static McpServer holdingServer(Vertx vertx, Promise<Void> started, Future<Void> release,
      Promise<String> cancelled) {
    return McpServer.create(vertx).tool(Tool.builder("hold").build(), (args, ctx) -> {
      ctx.onCancel(cancelled::tryComplete);
      started.tryComplete();
      return release.map(v -> ToolResult.text("released"));
    });
  }

  private static JsonRpcRequest hold(long id) {
    return new JsonRpcRequest(JsonRpcId.of(id), "tools/call", new JsonObject().put("name", "hold"));
  }

  @Test
  void undeployingTheVerticleCancelsAnInFlightHandler(Vertx vertx, VertxTestContext test) {
    Promise<Void> started = Promise.promise();
    Promise<String> cancelled = Promise.promise();
    McpServer server = holdingServer(vertx, started, Promise.<Void>promise().future(), cancelled);
    BusClient.connect(vertx, server)
        .compose(client -> client.initialize(LATEST, null).compose(init -> {
          client.exchange(hold(2));
          return started.future();
        }).compose(v -> client.undeploy()))
        .compose(v -> cancelled.future())
        .onComplete(test.succeeding(reason -> test.verify(() -> {
          assertEquals("Session closed", reason);
          test.completeNow();
        })));
  }

  @Test
  void undeployingTheVerticleLeavesNoConsumerAtTheSessionAddress(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx);
    BusClient.connect(vertx, server)
        .compose(client -> client.exchange(new JsonRpcRequest(JsonRpcId.of(1), "ping", null))
            .compose(pong -> client.undeploy())
            .compose(v -> vertx.eventBus().request(client.sessionAddress(),
                new JsonRpcRequest(JsonRpcId.of(2), "ping", null))))
        .onComplete(test.failing(failure -> test.verify(() -> {
          ReplyException reply = assertInstanceOf(ReplyException.class, failure);
          assertEquals(ReplyFailure.NO_HANDLERS, reply.failureType());
          test.completeNow();
        })));
  }

  @Test
  void aHundredSessionsDeployedAndUndeployedLeaveNoRegistryListener(Vertx vertx, VertxTestContext test) {
    McpServerImpl server = (McpServerImpl) McpServer.create(vertx);
    List<Future<BusClient>> connecting = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      connecting.add(BusClient.connect(vertx, server)
          .compose(client -> client.initialize(LATEST, null).map(client)));
    }
    Future.all(connecting)
        .compose(all -> {
          test.verify(() -> assertEquals(100, server.registryListeners()));
          List<Future<Void>> undeploying = new ArrayList<>();
          for (int i = 0; i < 100; i++) {
            undeploying.add(all.<BusClient>resultAt(i).undeploy());
          }
          return Future.all(undeploying);
        })
        .onComplete(test.succeeding(v -> test.verify(() -> {
          assertEquals(0, server.registryListeners());
          test.completeNow();
        })));
  }

  @Test
  void drainWaitsForTheRequestsBeingServed(Vertx vertx, VertxTestContext test) {
    Promise<Void> started = Promise.promise();
    Promise<Void> release = Promise.promise();
    McpServer server = holdingServer(vertx, started, release.future(), Promise.promise());
    McpEventBus.registerCodecs(vertx);
    McpSessionVerticle verticle = new McpSessionVerticle(server, "drained", "test.default.drained");
    Checkpoint answeredAndDrained = test.checkpoint(2);
    vertx.eventBus().consumer("test.reply.drained", m -> {
      if (m.body() instanceof JsonRpcResponse response && response.id().equals(JsonRpcId.of(2))) {
        answeredAndDrained.flag();
      }
    }).completion()
        .compose(v -> vertx.deployVerticle(verticle))
        .compose(id -> {
          DeliveryOptions options = new DeliveryOptions()
              .addHeader(McpEventBus.REPLY_TO, "test.reply.drained");
          vertx.eventBus().send(McpEventBus.sessionAddress("drained"), BusClient.initializeRequest(1, LATEST, null),
              options);
          vertx.eventBus().send(McpEventBus.sessionAddress("drained"), hold(2), options);
          return started.future();
        })
        .compose(v -> {
          Future<Void> drained = verticle.drain(60_000);
          test.verify(() -> assertFalse(drained.isComplete()));
          release.complete();
          return drained;
        })
        .onComplete(test.succeeding(v -> answeredAndDrained.flag()));
  }

  @Test
  void drainGivesUpAfterItsTimeout(Vertx vertx, VertxTestContext test) {
    Promise<Void> started = Promise.promise();
    Promise<String> cancelled = Promise.promise();
    McpServer server = holdingServer(vertx, started, Promise.<Void>promise().future(), cancelled);
    McpEventBus.registerCodecs(vertx);
    McpSessionVerticle verticle = new McpSessionVerticle(server, "stuck", "test.default.stuck");
    vertx.deployVerticle(verticle)
        .compose(id -> {
          vertx.eventBus().send(McpEventBus.sessionAddress("stuck"), BusClient.initializeRequest(1, LATEST, null));
          vertx.eventBus().send(McpEventBus.sessionAddress("stuck"), hold(2));
          return started.future();
        })
        .compose(v -> verticle.drain(10))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          // Draining only waits: the request is still being served, not cancelled.
          assertFalse(cancelled.future().isComplete());
          test.completeNow();
        })));
  }

  @Test
  void drainWithATimeoutOfZeroCompletes(Vertx vertx, VertxTestContext test) {
    Promise<Void> started = Promise.promise();
    McpServer server = holdingServer(vertx, started, Promise.<Void>promise().future(), Promise.promise());
    McpEventBus.registerCodecs(vertx);
    McpSessionVerticle verticle = new McpSessionVerticle(server, "zero", "test.default.zero");
    vertx.deployVerticle(verticle)
        .compose(id -> {
          vertx.eventBus().send(McpEventBus.sessionAddress("zero"), BusClient.initializeRequest(1, LATEST, null));
          vertx.eventBus().send(McpEventBus.sessionAddress("zero"), hold(2));
          return started.future();
        })
        .compose(v -> verticle.drain(0))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aSessionServesAgainAfterTheVerticleIsRedeployedUnderTheSameId(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx);
    BusClient.connect(vertx, server)
        .compose(client -> client.undeploy()
            .compose(v -> vertx.deployVerticle(new McpSessionVerticle(server, client.sessionId(), "test.x")))
            .compose(id -> client.exchange(new JsonRpcRequest(JsonRpcId.of(1), "ping", null))))
        .onComplete(test.succeeding(replies -> test.verify(() -> {
          assertEquals(new JsonRpcResponse(JsonRpcId.of(1), new JsonObject()), last(replies).body());
          test.completeNow();
        })));
  }
}
