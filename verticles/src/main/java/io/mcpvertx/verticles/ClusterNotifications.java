package io.mcpvertx.verticles;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.verticles.impl.ClusterNotificationsImpl;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * Carries resource updates between the servers of a deployment over the (clustered) event bus, so that
 * {@link McpServer#resourceUpdated} called on any instance reaches the sessions and {@code subscriptions/listen}
 * streams subscribed to that resource on every instance.
 *
 * <p>Each update is published once on the event bus; every attached server but the one it came from delivers it to
 * its own subscribers with {@link McpServer#resourceUpdatedElsewhere}, which does not publish again, so updates
 * neither loop nor arrive twice.
 *
 * <p>List changes need no relay: features that exist cluster-wide are feature verticles, and every instance's
 * {@link RemoteFeatures} registers and removes them itself, telling its own sessions and streams. Task status
 * reaches other instances through the task store's change announcements.
 */
public interface ClusterNotifications {

  /** The longest resource URI carried; longer ones are dropped with a warning. */
  int MAX_URI_LENGTH = 8192;

  /** Relays {@code server}'s resource updates to the other attached servers, and theirs to it. */
  static Future<ClusterNotifications> attach(Vertx vertx, McpServer server) {
    return ClusterNotificationsImpl.attach(vertx, server);
  }

  /**
   * Tells every attached server that {@code uri} changed, from code that has no server of its own (a resource
   * verticle on a worker node, a job).
   */
  static void resourceUpdated(Vertx vertx, String uri) {
    ClusterNotificationsImpl.publish(vertx, uri, null);
  }

  /** Stops relaying, both ways. */
  Future<Void> close();
}
