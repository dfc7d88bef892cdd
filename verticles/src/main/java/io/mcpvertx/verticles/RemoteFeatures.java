package io.mcpvertx.verticles;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.verticles.impl.RemoteFeaturesImpl;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * Exposes the tools, prompts and resources deployed as {@link McpFeatureVerticle}s (on this node or, with a
 * clustered event bus, any node) through an {@link McpServer}. Features appear when their verticle announces
 * itself and disappear when it is undeployed or its cluster node leaves; open sessions and {@code
 * subscriptions/listen} streams get {@code list_changed}.
 *
 * <p>When several verticles serve the same feature (the same tool verticle on two worker nodes), calls go to the
 * one that announced itself last, and to the one before when it goes: the feature stays while any of them lives.
 * A call in flight to a node that leaves fails at once (for a tool, as a tool error saying so).
 *
 * <p>Attach it on the context that should follow the announcements (a verticle's, typically).
 */
public interface RemoteFeatures {

  /** How long a call to a feature verticle may take by default: tool calls can be long. */
  long DEFAULT_CALL_TIMEOUT_MS = RemoteFeaturesOptions.DEFAULT_CALL_TIMEOUT_MS;

  static Future<RemoteFeatures> attach(Vertx vertx, McpServer server) {
    return attach(vertx, server, new RemoteFeaturesOptions());
  }

  static Future<RemoteFeatures> attach(Vertx vertx, McpServer server, long callTimeoutMs) {
    return attach(vertx, server, new RemoteFeaturesOptions().setCallTimeoutMs(callTimeoutMs));
  }

  static Future<RemoteFeatures> attach(Vertx vertx, McpServer server, RemoteFeaturesOptions options) {
    return RemoteFeaturesImpl.attach(vertx, server, options);
  }

  /** Number of remote features currently exposed. */
  int size();

  /** Stops following announcements and removes the features this bridge registered. */
  Future<Void> close();
}
