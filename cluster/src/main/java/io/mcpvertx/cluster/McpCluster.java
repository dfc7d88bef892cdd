package io.mcpvertx.cluster;

import io.mcpvertx.cluster.impl.HazelcastSetup;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.spi.VertxMetricsFactory;

/**
 * A clustered Vert.x for an MCP instance: sessions, streams and feature verticles then reach each other across
 * instances over the clustered event bus, with embedded Hazelcast as the cluster manager.
 *
 * <pre>
 * McpCluster.start(new McpClusterOptions().setPort(5701)
 *     .setMembers(List.of("10.0.0.1:5701", "10.0.0.2:5701", "10.0.0.3:5701")))
 *   .onSuccess(vertx -> ...);
 * </pre>
 */
public final class McpCluster {

  private McpCluster() {
  }

  /** Starts this member and joins the cluster; fails when Hazelcast or the event bus cannot start. */
  public static Future<Vertx> start(McpClusterOptions options) {
    return start(options, new VertxOptions(), null);
  }

  /**
   * Like {@link #start(McpClusterOptions)}, from {@code vertxOptions} (its event-bus options are replaced by the
   * cluster's) and with Vert.x metrics from {@code metrics} (null for none), e.g. the metrics module's Micrometer
   * factory.
   */
  public static Future<Vertx> start(McpClusterOptions options, VertxOptions vertxOptions,
      VertxMetricsFactory metrics) {
    return HazelcastSetup.start(new McpClusterOptions(options), new VertxOptions(vertxOptions), metrics);
  }

  /**
   * How many members this member sees in its cluster (itself included); 0 when {@code vertx} was not started by
   * {@link #start} or its cluster manager stopped. A local view, cheap to read: what a metric gauge reads.
   */
  public static int members(Vertx vertx) {
    return HazelcastSetup.members(vertx);
  }

  /** This member's id in the cluster, or null when {@code vertx} was not started by {@link #start}. */
  public static String nodeId(Vertx vertx) {
    return HazelcastSetup.nodeId(vertx);
  }

  /**
   * A readiness check: succeeds while {@code vertx}, started by {@link #start}, is a member of a running cluster;
   * fails otherwise (not started here, Hazelcast stopped, or this member no longer among the members it sees).
   */
  public static Future<Void> joined(Vertx vertx) {
    return HazelcastSetup.joined(vertx);
  }
}
