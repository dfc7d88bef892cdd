package io.mcpvertx.verticles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.verticles.bus.McpEventBus;
import io.mcpvertx.verticles.impl.SessionVerticle;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A session verticle that stores its record (the hook a transport sharing sessions uses, on the verticle's
 * implementation): what the session sends waits for the write, writes never overlap, a
 * record that changes during a write replaces the one waiting, and a stored session can be taken over.
 */
@ExtendWith(VertxExtension.class)
class McpSessionVerticlePersistenceTest {

  private static final String REPLIES = "test.persistence.replies";

  /** A store whose writes the test completes one by one. */
  private static final class GatedStore {
    final List<SessionRecord> records = new CopyOnWriteArrayList<>();
    final List<Promise<Void>> writes = new CopyOnWriteArrayList<>();

    Future<?> write(SessionRecord record) {
      Promise<Void> write = Promise.promise();
      records.add(record);
      writes.add(write);
      return write.future();
    }
  }

  private static void send(Vertx vertx, String sessionId, JsonRpcRequest request) {
    vertx.eventBus().send(McpEventBus.sessionAddress(sessionId), request,
        new DeliveryOptions().addHeader(McpEventBus.REPLY_TO, REPLIES));
  }

  private static JsonRpcRequest setLevel(long id, String level) {
    return new JsonRpcRequest(JsonRpcId.of(id), "logging/setLevel", new JsonObject().put("level", level));
  }

  private static Future<Void> until(Vertx vertx, BooleanSupplier condition) {
    return condition.getAsBoolean() ? Future.succeededFuture()
        : vertx.timer(10).compose(v -> until(vertx, condition));
  }

  @Test
  void answersWaitForTheWriteAndAChangeDuringAWriteReplacesTheWaitingOne(Vertx vertx, VertxTestContext test) {
    McpEventBus.registerCodecs(vertx);
    GatedStore store = new GatedStore();
    List<Object> replies = new CopyOnWriteArrayList<>();
    vertx.eventBus().consumer(REPLIES, m -> replies.add(m.body()));
    SessionVerticle verticle = new SessionVerticle(McpServer.create(vertx), "s-1", "test.persistence.default", null)
        .onPersistentChange(store::write);
    vertx.deployVerticle(verticle)
        .compose(id -> {
          send(vertx, "s-1", BusClient.initializeRequest(1, "2025-11-25", null));
          return until(vertx, () -> store.records.size() == 1);
        })
        .compose(v -> vertx.timer(100))
        .compose(v -> {
          test.verify(() -> {
            assertEquals("AWAITING_INITIALIZED", store.records.get(0).state());
            assertTrue(replies.isEmpty(), "answered before the record was stored: " + replies);
          });
          store.writes.get(0).complete();
          return until(vertx, () -> replies.size() == 1);
        })
        .compose(v -> {
          // Three changes while the first of them is being written: the second is never written.
          send(vertx, "s-1", setLevel(2, "debug"));
          send(vertx, "s-1", setLevel(3, "info"));
          send(vertx, "s-1", setLevel(4, "error"));
          return until(vertx, () -> store.records.size() == 2);
        })
        .compose(v -> vertx.timer(100))
        .compose(v -> {
          test.verify(() -> {
            assertEquals("debug", store.records.get(1).logLevel());
            assertEquals(1, replies.size(), "answered during a write: " + replies);
          });
          store.writes.get(1).fail("the store is down"); // a failed write is logged; the session goes on
          return until(vertx, () -> store.records.size() == 3);
        })
        .compose(v -> {
          test.verify(() -> {
            assertEquals("error", store.records.get(2).logLevel());
            assertEquals(1, replies.size());
          });
          store.writes.get(2).complete();
          return until(vertx, () -> replies.size() == 4);
        })
        .onComplete(test.succeeding(v -> test.verify(() -> {
          assertEquals(3, store.records.size());
          for (int i = 1; i < 4; i++) {
            assertEquals(JsonRpcId.of(i + 1), assertInstanceOf(JsonRpcResponse.class, replies.get(i)).id(),
                "answers keep their order");
          }
          test.completeNow();
        })));
  }

  @Test
  void takesOverAStoredSessionAndRefusesAClosedOne(Vertx vertx, VertxTestContext test) {
    McpEventBus.registerCodecs(vertx);
    McpServer server = McpServer.create(vertx).tool(Tool.builder("noop").description("Does nothing").build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text("done")));
    SessionRecord operating = new SessionRecord("s-2", "OPERATING", "2025-06-18",
        new JsonObject().put("name", "c").put("version", "1").put("capabilities", new JsonObject()), "warning",
        Set.of(), null, 7L);
    SessionRecord closed = new SessionRecord("s-3", "CLOSED", "2025-06-18", null, null, Set.of(), null, 0L);
    Promise<Object> answer = Promise.promise();
    vertx.eventBus().consumer(REPLIES, m -> answer.tryComplete(m.body()));
    vertx.deployVerticle(McpSessionVerticle.restoring(server, operating, "test.persistence.default"))
        .compose(id -> {
          // No initialize: the session goes on in the recorded state.
          send(vertx, "s-2", new JsonRpcRequest(JsonRpcId.of(1), "tools/list", null));
          return answer.future();
        })
        .compose(listed -> {
          test.verify(() -> assertEquals("noop", assertInstanceOf(JsonRpcResponse.class, listed).result()
              .getJsonArray("tools").getJsonObject(0).getString("name")));
          return vertx.deployVerticle(McpSessionVerticle.restoring(server, closed, "test.persistence.default"))
              .map(closedId -> "deployed")
              .otherwise(failure -> assertInstanceOf(IllegalArgumentException.class, failure).getMessage());
        })
        .onComplete(test.succeeding(outcome -> test.verify(() -> {
          assertTrue(outcome.contains("closed"), outcome);
          test.completeNow();
        })));
  }
}
