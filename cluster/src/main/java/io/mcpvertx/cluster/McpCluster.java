package io.mcpvertx.cluster;

import io.mcpvertx.cluster.impl.HazelcastSetup;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.spi.VertxTracerFactory;

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
    return HazelcastSetup.start(new McpClusterOptions(options), null);
  }

  /**
   * Like {@link #start(McpClusterOptions)}, with Vert.x's tracer on {@code tracer} (the tracing module's {@code
   * McpTracing.vertxTracer}): HTTP and event-bus spans, and trace context carried in event-bus messages between
   * the members. Null: no tracer.
   */
  public static Future<Vertx> start(McpClusterOptions options, VertxTracerFactory tracer) {
    return HazelcastSetup.start(new McpClusterOptions(options), tracer);
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
