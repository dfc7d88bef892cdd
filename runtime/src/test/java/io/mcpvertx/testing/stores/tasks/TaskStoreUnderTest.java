package io.mcpvertx.testing.stores.tasks;

import io.mcpvertx.spi.tasks.TaskStore;
import io.vertx.core.Vertx;

/**
 * What the parts of {@link TaskStoreContract} need from the implementation's test. Interface methods are public,
 * so the contract forwards these to its protected hooks, which are what an implementation's test overrides.
 */
interface TaskStoreUnderTest {

  TaskStore storeUnderTest();

  Vertx vertxUnderTest();
}
