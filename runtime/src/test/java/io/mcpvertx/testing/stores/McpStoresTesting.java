package io.mcpvertx.testing.stores;

import io.mcpvertx.server.McpStores;
import io.mcpvertx.spi.tasks.TaskStore;
import io.vertx.core.Vertx;

/** Store bundles for tests that put a store of their own under a server. */
public final class McpStoresTesting {

  private McpStoresTesting() {
  }

  /** In-memory stores, but tasks in {@code tasks}. */
  public static McpStores tasksIn(Vertx vertx, TaskStore tasks) {
    return McpStores.builder(vertx).tasks(tasks).build();
  }
}
