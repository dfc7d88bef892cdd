package io.mcpvertx.spi.tasks;

import io.vertx.core.Vertx;

/** What the parts of {@link TaskStoreContract} need from the implementation's test. */
interface TaskStoreUnderTest {

  /** The store to test; it may be shared by every test. */
  TaskStore store();

  /** The Vert.x instance the store uses; the suite's listeners run on its contexts. */
  Vertx vertx();
}
