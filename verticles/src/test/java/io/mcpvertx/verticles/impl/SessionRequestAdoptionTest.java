package io.mcpvertx.verticles.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
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
 * The instance that held a client's POST dies while the session's owner (another instance) runs the request; the
 * load balancer (or the client) sends the same request again, through another instance. The owner hands the request
 * in progress to that new exchange instead of refusing its id as in use or running it twice, and the instance that
 * died can no longer cancel it.
 */
@ExtendWith(VertxExtension.class)
class SessionRequestAdoptionTest {

  private static final String LATEST = "2025-11-25";

  /** A session verticle with one tool that waits for {@link #gate}, initialized, and listeners on two fronts. */
  private static final class Fixture {
    final Promise<Void> gate = Promise.promise();
    final List<String> runs = new CopyOnWriteArrayList<>();
    final List<Object> first = new CopyOnWriteArrayList<>();
    final Promise<Void> firstAnswered = Promise.promise();
    final List<JsonRpcMessage> second = new CopyOnWriteArrayList<>();
    final Promise<Void> secondAnswered = Promise.promise();
    final SessionVerticle session;
    final String address;
    final String name;

    Fixture(Vertx vertx, String name) {
      this.name = name;
      McpEventBus.registerCodecs(vertx);
      McpServer server = McpServer.create(vertx).tool(Tool.builder("gated").build(), (args, ctx) -> {
        runs.add("run");
        return gate.future().map(v -> ToolResult.text("released"));
      });
      session = new SessionVerticle(server, name, "test.default." + name, null);
      address = McpEventBus.sessionAddress(name);
      // The first front: what reaches it, bodies and abandonment notices alike.
      vertx.eventBus().<Object>consumer("test.first." + name, m -> {
        String abandoned = m.headers().get(McpEventBus.ABANDONED);
        first.add(abandoned != null ? "abandoned " + abandoned : m.body());
        if (m.body() instanceof JsonRpcResponse) {
          firstAnswered.tryComplete();
        }
      });
      vertx.eventBus().<Object>consumer("test.second." + name, m -> {
        second.add((JsonRpcMessage) m.body());
        if (m.body() instanceof JsonRpcResponse || m.body() instanceof JsonRpcErrorResponse) {
          secondAnswered.tryComplete();
        }
      });
    }

    Future<Void> start(Vertx vertx) {
      return vertx.deployVerticle(session).compose(id -> {
        Promise<Void> initialized = Promise.promise();
        List<JsonRpcMessage> setup = new CopyOnWriteArrayList<>();
        session.deliver(new JsonRpcRequest(JsonRpcId.of(0), "initialize", new JsonObject()
            .put("protocolVersion", LATEST).put("capabilities", new JsonObject())
            .put("clientInfo", new JsonObject().put("name", "t").put("version", "1"))), setup::add, null);
        session.deliver(new JsonRpcNotification("notifications/initialized", null), setup::add,
            initialized::complete);
        return initialized.future();
      });
    }

    DeliveryOptions front(String which, String stream) {
      return new DeliveryOptions().addHeader(McpEventBus.REPLY_TO, "test." + which + "." + name)
          .addHeader(McpEventBus.STREAM, stream);
    }

    /** Sends {@code request} over the bus as the exchange stream {@code stream} of front {@code which} would. */
    Future<Void> send(Vertx vertx, String which, String stream, JsonRpcRequest request) {
      return vertx.eventBus().request(address, request, front(which, stream)).mapEmpty();
    }

    /** Tells the session the instance producing exchange stream {@code stream} died, as the cluster does. */
    Future<Void> producerLost(Vertx vertx, String stream) {
      return vertx.eventBus().request(address, null,
          new DeliveryOptions().addHeader(SessionVerticle.PRODUCER_LOST, stream)).mapEmpty();
    }

    /**
     * The first front's instance is found dead, then the gated run is let go: completes a moment after
     * {@code answered}, so anything sent after the answer would have arrived too.
     */
    Future<Void> firstLostThenReleased(Vertx vertx, Future<Void> answered) {
      return producerLost(vertx, "stream-1")
          .compose(v -> {
            gate.complete();
            return answered;
          })
          .compose(v -> vertx.timer(100).mapEmpty());
    }

    /** Completes once everything delivered to the session so far has been handled. */
    Future<Void> behind() {
      Promise<Void> behind = Promise.promise();
      session.deliver(new JsonRpcRequest(JsonRpcId.of(99), "ping", null), m -> { }, behind::complete);
      return behind.future();
    }
  }

  private static JsonRpcRequest call(int id, String tool) {
    return new JsonRpcRequest(JsonRpcId.of(id), "tools/call", new JsonObject().put("name", tool));
  }

  @Test
  void theSameRequestThroughAnotherInstanceTakesOverTheOneInProgress(Vertx vertx, VertxTestContext test) {
    Fixture f = new Fixture(vertx, "adopted-bus");
    f.start(vertx)
        .compose(v -> f.send(vertx, "first", "stream-1", call(4, "gated")))
        .compose(v -> f.send(vertx, "second", "stream-2", call(4, "gated")))
        // The first front's instance is found dead: cancelling its stream's request must not touch the request
        // that now answers to the second front.
        .compose(v -> f.firstLostThenReleased(vertx, f.secondAnswered.future()))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          assertEquals(List.of("run"), f.runs, "the request ran once");
          assertEquals(1, f.second.size(), () -> "what the second front got: " + f.second);
          JsonRpcResponse response = assertInstanceOf(JsonRpcResponse.class, f.second.get(0));
          assertEquals(JsonRpcId.of(4), response.id());
          assertEquals("released", response.result().getJsonArray("content").getJsonObject(0).getString("text"));
          assertEquals(List.of("abandoned " + JsonRpcId.of(4).encode()), f.first,
              "the first front is only told to let its exchange go");
          test.completeNow();
        })));
  }

  @Test
  void theSameRequestThroughAnExchangeInTheOwnersJvmTakesOverTheOneInProgress(Vertx vertx,
      VertxTestContext test) {
    Fixture f = new Fixture(vertx, "adopted-local");
    List<JsonRpcMessage> straight = new CopyOnWriteArrayList<>();
    Promise<Void> answered = Promise.promise();
    MessageSink local = message -> {
      straight.add(message);
      if (message instanceof JsonRpcResponse) {
        answered.tryComplete();
      }
    };
    f.start(vertx)
        .compose(v -> f.send(vertx, "first", "stream-1", call(4, "gated")))
        .compose(v -> {
          f.session.deliver(call(4, "gated"), local, null);
          return f.behind();
        })
        .compose(v -> f.firstLostThenReleased(vertx, answered.future()))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          assertEquals(List.of("run"), f.runs, "the request ran once");
          assertEquals(1, straight.size(), () -> "what the exchange in this JVM got: " + straight);
          assertEquals(JsonRpcId.of(4), assertInstanceOf(JsonRpcResponse.class, straight.get(0)).id());
          assertEquals(List.of("abandoned " + JsonRpcId.of(4).encode()), f.first);
          test.completeNow();
        })));
  }

  @Test
  void anotherRequestUnderAnIdInProgressIsStillRefused(Vertx vertx, VertxTestContext test) {
    Fixture f = new Fixture(vertx, "not-adopted");
    f.start(vertx)
        .compose(v -> f.send(vertx, "first", "stream-1", call(4, "gated")))
        // Same id, other arguments: a client's mistake, not the same request sent again.
        .compose(v -> f.send(vertx, "second", "stream-2", call(4, "other")))
        .compose(v -> f.secondAnswered.future())
        .compose(v -> {
          f.gate.complete();
          return f.firstAnswered.future();
        })
        .onComplete(test.succeeding(v -> test.verify(() -> {
          assertEquals(List.of("run"), f.runs);
          JsonRpcErrorResponse refused = assertInstanceOf(JsonRpcErrorResponse.class, f.second.get(0));
          assertTrue(refused.error().message().contains("already in use"), refused.error()::message);
          assertInstanceOf(JsonRpcResponse.class, f.first.get(f.first.size() - 1), () -> "first: " + f.first);
          test.completeNow();
        })));
  }
}
