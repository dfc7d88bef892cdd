package io.mcpvertx.verticles;

import static io.mcpvertx.verticles.ClusterFeaturesTest.await;
import static io.mcpvertx.verticles.FeatureVerticles.assertNoViolations;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.StatelessTestClient;
import io.mcpvertx.verticles.ClusterNode.Cluster;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Resource updates across a real Vert.x cluster (Hazelcast over 127.0.0.1): an update notified on node A reaches
 * the 2026-07-28 listen streams and the 2025 sessions of node B's server, and A's own subscribers exactly once.
 */
class ClusterNotificationsTest {

  private static final String UPDATED = "notifications/resources/updated";
  private static final String RESOURCE = "local://resource";
  /** Subscribed to by everyone and updated last: once it has arrived, anything sent before it has too. */
  private static final String SENTINEL = "local://sentinel";

  private static ClusterNode a;
  private static ClusterNode b;

  @BeforeAll
  static void startNodes() {
    Cluster cluster = Cluster.of(2);
    a = await(ClusterNode.start("A", cluster, 0));
    b = await(ClusterNode.start("B", cluster, 1));
  }

  @AfterAll
  static void stopNodes() {
    if (b != null) {
      await(b.close());
    }
    if (a != null) {
      await(a.close());
    }
  }

  @Test
  void aResourceUpdateOnOneNodeReachesListenStreamsAndSessionsOnAnotherOnce() {
    McpServer serverA = FeatureVerticles.server(a.vertx);
    McpServer serverB = FeatureVerticles.server(b.vertx);
    ClusterNotifications relayA = await(ClusterNotifications.attach(a.vertx, serverA));
    ClusterNotifications relayB = await(ClusterNotifications.attach(b.vertx, serverB));
    McpTestClient onA = await(FeatureVerticles.client(a.vertx, serverA));
    McpTestClient onB = await(FeatureVerticles.client(b.vertx, serverB));
    StatelessTestClient listener = StatelessTestClient.engine(b.vertx, serverB);
    StatelessTestClient.Listening stream = await(FeatureVerticles.listen(listener, new JsonObject()
        .put("resourceSubscriptions", new JsonArray().add(RESOURCE).add(SENTINEL))));
    try {
      for (McpTestClient client : new McpTestClient[] {onA, onB}) {
        await(client.call("resources/subscribe", new JsonObject().put("uri", RESOURCE)));
        await(client.call("resources/subscribe", new JsonObject().put("uri", SENTINEL)));
      }

      serverA.resourceUpdated(RESOURCE);
      assertEquals(RESOURCE, uri(await(stream.next(UPDATED))));
      assertEquals(RESOURCE, uri(await(onB.awaitNotification(UPDATED))));
      assertEquals(RESOURCE, uri(await(onA.awaitNotification(UPDATED))));

      // From a node with no server of its own, such as a worker's resource verticle.
      ClusterNotifications.resourceUpdated(b.vertx, RESOURCE);
      assertEquals(RESOURCE, uri(await(stream.next(UPDATED))));
      assertEquals(RESOURCE, uri(await(onB.awaitNotification(UPDATED))));
      assertEquals(RESOURCE, uri(await(onA.awaitNotification(UPDATED))));

      serverA.resourceUpdated(SENTINEL);
      assertEquals(SENTINEL, uri(await(stream.next(UPDATED))));
      assertEquals(SENTINEL, uri(await(onB.awaitNotification(UPDATED))));
      assertEquals(SENTINEL, uri(await(onA.awaitNotification(UPDATED))));
      assertEquals(3, await(stream.count(UPDATED)));
      assertEquals(3, onB.notifications(UPDATED).size());
      assertEquals(3, onA.notifications(UPDATED).size(), "A's own update must not come back to it");
      assertNoViolations(onA);
      assertNoViolations(onB);
      listener.assertNoViolations();
    } finally {
      stream.close();
      await(relayA.close());
      await(relayB.close());
      await(onA.close());
      await(onB.close());
    }
  }

  private static String uri(JsonObject notification) {
    return notification.getJsonObject("params").getString("uri");
  }
}
