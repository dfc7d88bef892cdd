package io.mcpvertx.verticles.impl.cluster;

import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.ClusterManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.HashSet;
import java.util.Set;

/**
 * The cluster's members as the cluster manager of a clustered Vert.x sees them.
 *
 * <p>The project's only reach into Vert.x internals: Vert.x 5 has no public way to get the {@link ClusterManager} a
 * clustered instance was built with, and this module serves a Vert.x clustered by any means. The membership is read ({@link ClusterManager#getNodes()}, a local view the
 * cluster manager keeps up to date), never listened to: {@link ClusterManager#nodeListener} holds a single
 * listener, which Vert.x's own HA manager has set, so setting ours would silently replace it.
 */
public final class ClusterMembership {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterMembership.class);

  private final ClusterManager manager;

  private ClusterMembership(ClusterManager manager) {
    this.manager = manager;
  }

  /** The membership of {@code vertx}'s cluster; null when it is not clustered. */
  public static ClusterMembership of(Vertx vertx) {
    if (vertx.isClustered() && vertx instanceof VertxInternal internal && internal.clusterManager() != null) {
      return new ClusterMembership(internal.clusterManager());
    }
    return null;
  }

  /** The id of {@code vertx}'s node in its cluster; null when it is not clustered. */
  public static String localNodeId(Vertx vertx) {
    ClusterMembership membership = of(vertx);
    return membership == null ? null : membership.manager.getNodeId();
  }

  /**
   * The ids of the nodes now in the cluster, this one included; null when the cluster manager cannot tell (this
   * node is leaving, or was cut off), in which case nobody should be taken for gone.
   */
  public Set<String> nodes() {
    try {
      if (!manager.isActive()) {
        return null;
      }
      return new HashSet<>(manager.getNodes());
    } catch (RuntimeException e) {
      LOG.debug("The cluster manager could not list the members", e);
      return null;
    }
  }
}
