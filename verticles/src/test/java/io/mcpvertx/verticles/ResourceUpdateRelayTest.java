package io.mcpvertx.verticles;

import static io.mcpvertx.verticles.FeatureVerticles.assertNoViolations;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.verticles.impl.ClusterNotificationsImpl;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link ClusterNotifications} between two servers on one (local) event bus. */
@ExtendWith(VertxExtension.class)
class ResourceUpdateRelayTest {

  private static final String UPDATED = "notifications/resources/updated";
  private static final String RESOURCE = "local://resource";
  private static final String SENTINEL = "local://sentinel";

  private static Future<McpTestClient> subscribed(Vertx vertx, McpServer server) {
    return FeatureVerticles.client(vertx, server).compose(client ->
        client.call("resources/subscribe", new JsonObject().put("uri", RESOURCE))
            .compose(ok -> client.call("resources/subscribe", new JsonObject().put("uri", SENTINEL)))
            .map(client));
  }

  @Test
  void afterCloseTheServersUpdatesStayLocal(Vertx vertx, VertxTestContext test) {
    McpServer server = FeatureVerticles.server(vertx);
    List<String> published = new ArrayList<>();
    Promise<Void> sentinel = Promise.promise();
    MessageConsumer<JsonObject> bus = vertx.eventBus().consumer(ClusterNotificationsImpl.RESOURCE_UPDATED, m -> {
      String uri = m.body().getString("uri");
      published.add(uri);
      if (SENTINEL.equals(uri)) {
        sentinel.tryComplete();
      }
    });
    bus.completion()
        .compose(v -> ClusterNotifications.attach(vertx, server))
        .compose(relay -> subscribed(vertx, server).compose(client -> {
          server.resourceUpdated(RESOURCE);
          return relay.close().compose(v -> {
            server.resourceUpdated(RESOURCE);
            // Same sender, same consumer: the bus delivers in order, so the sentinel comes after anything relayed.
            ClusterNotifications.resourceUpdated(vertx, SENTINEL);
            return sentinel.future();
          }).compose(v -> client.call("ping", null)).map(p -> {
            assertEquals(List.of(RESOURCE, SENTINEL), published);
            assertEquals(2, client.notifications(UPDATED).size(), "both updates reached the server's own session");
            assertNoViolations(client);
            return p;
          });
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void malformedUpdatesOnTheBusAreIgnored(Vertx vertx, VertxTestContext test) {
    McpServer server = FeatureVerticles.server(vertx);
    ClusterNotifications.attach(vertx, server).compose(relay -> subscribed(vertx, server).compose(client -> {
      vertx.eventBus().publish(ClusterNotificationsImpl.RESOURCE_UPDATED, "not json");
      vertx.eventBus().publish(ClusterNotificationsImpl.RESOURCE_UPDATED, new JsonObject().put("uri", 7));
      vertx.eventBus().publish(ClusterNotificationsImpl.RESOURCE_UPDATED,
          new JsonObject().put("uri", "x".repeat(ClusterNotifications.MAX_URI_LENGTH + 1)));
      ClusterNotifications.resourceUpdated(vertx, SENTINEL);
      return client.awaitNotification(UPDATED).map(n -> {
        assertEquals(SENTINEL, n.getJsonObject("params").getString("uri"));
        assertEquals(1, client.notifications(UPDATED).size());
        assertNoViolations(client);
        return n;
      });
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void publishingRejectsAnEmptyOrOverlongUri(Vertx vertx) {
    assertThrows(IllegalArgumentException.class, () -> ClusterNotifications.resourceUpdated(vertx, ""));
    assertThrows(IllegalArgumentException.class,
        () -> ClusterNotifications.resourceUpdated(vertx, "x".repeat(ClusterNotifications.MAX_URI_LENGTH + 1)));
  }
}
