package io.mcpvertx.server;

import static io.mcpvertx.server.SessionFixtures.assertNoViolations;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A session's stored record ({@link McpSession#snapshot()}) follows what it negotiated and what the client set, and
 * a session restored from it on another server carries on: same revision, client, log level and subscriptions.
 */
@ExtendWith(VertxExtension.class)
class SessionPersistenceTest {

  private static final String URI = SessionFixtures.RESOURCE_URI;

  @Test
  void theRecordFollowsInitializeLogLevelAndSubscriptions(Vertx vertx, VertxTestContext test) {
    McpServer server = SessionFixtures.fullServer(vertx);
    List<SessionRecord> stored = new ArrayList<>();
    McpTestClient.inProcess(vertx, server)
        .compose(client -> {
          client.session().onPersistentChange(session -> stored.add(session.snapshot()));
          return client.initialize("2025-06-18").map(client);
        })
        .compose(client -> {
          client.notify("notifications/initialized", null);
          return client.call("logging/setLevel", new JsonObject().put("level", "warning"))
              .compose(r -> client.call("resources/subscribe", new JsonObject().put("uri", URI))).map(client);
        })
        .onComplete(test.succeeding(client -> test.verify(() -> {
          assertEquals(4, stored.size(), () -> "changes: " + stored);
          assertEquals("AWAITING_INITIALIZED", stored.get(0).state());
          assertEquals("2025-06-18", stored.get(0).protocolVersion());
          assertEquals("mcp-test-client", stored.get(0).client().getString("name"));
          assertEquals("OPERATING", stored.get(1).state());
          assertEquals("warning", stored.get(2).logLevel());
          SessionRecord last = stored.get(3);
          assertEquals(Set.of(URI), last.subscriptions());
          assertEquals(client.session().id(), last.sessionId());
          assertNull(last.principal());
          assertEquals(last, SessionRecord.fromJson(last.toJson()));
          test.completeNow();
        })));
  }

  @Test
  void aRestoredSessionCarriesOnWhereTheOtherLeftOff(Vertx vertx, VertxTestContext test) {
    McpServer first = SessionFixtures.fullServer(vertx);
    McpServer second = SessionFixtures.fullServer(vertx);
    McpTestClient.inProcess(vertx, first)
        .compose(client -> client.initialize("2025-11-25").map(client))
        .compose(client -> {
          client.notify("notifications/initialized", null);
          return client.call("logging/setLevel", new JsonObject().put("level", "error"))
              .compose(r -> client.call("resources/subscribe", new JsonObject().put("uri", URI)))
              .map(r -> client.session().snapshot());
        })
        .compose(record -> McpTestClient.restored(vertx, second, record).compose(restored -> {
          test.verify(() -> {
            assertEquals(record.sessionId(), restored.session().id());
            assertEquals(SessionState.OPERATING, restored.session().state());
            assertEquals("2025-11-25", restored.session().protocolVersion().orElseThrow().id());
            assertEquals("error", restored.session().logLevel().orElseThrow().wireName());
          });
          // No initialize again: the restored session serves requests at once, and keeps the subscription.
          Future<JsonObject> updated = restored.awaitNotification("notifications/resources/updated");
          return restored.call("tools/call", new JsonObject().put("name", "echo")
                  .put("arguments", new JsonObject().put("text", "again")))
              .compose(result -> {
                test.verify(() -> assertEquals("again",
                    result.getJsonArray("content").getJsonObject(0).getString("text")));
                second.resourceUpdated(URI);
                return updated;
              })
              .map(n -> {
                test.verify(() -> {
                  assertEquals(URI, n.getJsonObject("params").getString("uri"));
                  assertNoViolations(restored);
                  assertEquals(record, restored.session().snapshot());
                });
                return n;
              });
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aRestoredSessionBelongsToTheRecordedPrincipal(Vertx vertx, VertxTestContext test) {
    McpServer server = SessionFixtures.fullServer(vertx);
    Principal alice = new Principal("https://issuer.example", "alice", Set.of("read"));
    SessionRecord record = new SessionRecord("s-1", "OPERATING", "2025-06-18",
        new JsonObject().put("name", "c").put("version", "1").put("capabilities", new JsonObject()), null, Set.of(),
        alice.toJson(), 42L);
    McpTestClient.restored(vertx, server, record).onComplete(test.succeeding(client -> test.verify(() -> {
      SessionRecord snapshot = client.session().snapshot();
      assertEquals(alice.toJson(), snapshot.principal());
      assertEquals(42L, snapshot.createdAt());
      test.completeNow();
    })));
  }

  @Test
  void aRecordOfAClosedSessionCannotBeRestored(Vertx vertx, VertxTestContext test) {
    McpServer server = SessionFixtures.fullServer(vertx);
    SessionRecord closed = new SessionRecord("s-2", "CLOSED", "2025-06-18", null, null, Set.of(), null, 0L);
    vertx.runOnContext(v -> test.verify(() -> {
      // restoreSession needs an event-loop context: a verticle's, as transports call it.
      assertTrue(Vertx.currentContext().isEventLoopContext());
      assertThrows(IllegalArgumentException.class, () -> server.restoreSession(closed, message -> { }));
      test.completeNow();
    }));
  }
}
