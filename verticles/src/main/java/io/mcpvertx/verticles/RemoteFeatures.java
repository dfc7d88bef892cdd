package io.mcpvertx.verticles;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.verticles.impl.RemoteFeaturesImpl;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * Exposes the tools, prompts and resources deployed as {@link McpFeatureVerticle}s (on this node or, with a
 * clustered event bus, any node) through an {@link McpServer}. Features appear when their verticle announces
 * itself and disappear when it is undeployed; open sessions get {@code list_changed}.
 */
public interface RemoteFeatures {

  /** How long a call to a feature verticle may take by default: tool calls can be long. */
  long DEFAULT_CALL_TIMEOUT_MS = 10 * 60 * 1000;

  static Future<RemoteFeatures> attach(Vertx vertx, McpServer server) {
    return attach(vertx, server, DEFAULT_CALL_TIMEOUT_MS);
  }

  static Future<RemoteFeatures> attach(Vertx vertx, McpServer server, long callTimeoutMs) {
    return RemoteFeaturesImpl.attach(vertx, server, callTimeoutMs);
  }

  /** Number of remote features currently exposed. */
  int size();

  /** Stops following announcements and removes the features this bridge registered. */
  Future<Void> close();
}
