package io.mcpvertx.examples.verticle;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.verticles.ClusterNotifications;
import io.mcpvertx.verticles.RemoteFeatures;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * The two roles of a node in a cluster as far as features and notifications go, each given a clustered Vert.x: a
 * worker-only node serves tool verticles and nothing else; a server node exposes every node's tool verticles and
 * shares its resource updates with the other server nodes. See docs/cluster.md.
 */
public final class ClusterRoles {

  private ClusterRoles() {
  }

  /** A worker-only node: no server, no HTTP; its tools are called from sessions on any server node. */
  public static Future<String> worker(Vertx clustered) {
    return clustered.deployVerticle(new ClockToolVerticle());
  }

  /**
   * A server node: lists and calls the tool verticles of every node (following them as nodes come and go), and
   * relays resource updates to and from the other server nodes. Call it on the context that should follow the
   * announcements, before the transport starts listening.
   */
  public static Future<McpServer> server(Vertx clustered, McpServer server) {
    return RemoteFeatures.attach(clustered, server)
        .compose(features -> ClusterNotifications.attach(clustered, server))
        .map(notifications -> server);
  }
}
