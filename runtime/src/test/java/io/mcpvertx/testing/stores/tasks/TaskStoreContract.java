package io.mcpvertx.testing.stores.tasks;

import io.mcpvertx.spi.tasks.TaskStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * What every {@link TaskStore} must do, whatever keeps the tasks. A store implementation's test extends this
 * class and says which store to test and on which Vert.x instance.
 *
 * <p>The suite uses only the SPI, so a store backed by a server runs it unchanged: the store may be shared by
 * every test (each test makes its own owners and ids), and expiry is tested with short real TTLs and bounded
 * polling, never with a clock the suite controls or a timing threshold. Races run many rounds on threads released
 * together.
 *
 * <p>The tests live in one interface per part of the SPI, so each file stays about one thing; this class gathers
 * them, and {@link TaskStoreTesting} has the helpers an implementation's own tests may reuse.
 */
public abstract class TaskStoreContract implements TaskCreationContract, TaskTransitionContract,
    TaskInputContract, TaskListingContract, TaskLimitsContract, TaskListeningContract {

  /** The store to test; it may be shared by every test. */
  protected abstract TaskStore store();

  /** The Vert.x instance the store uses; the suite's listeners run on its contexts. */
  protected abstract Vertx vertx();

  @Override
  public final TaskStore storeUnderTest() {
    return store();
  }

  @Override
  public final Vertx vertxUnderTest() {
    return vertx();
  }

  protected static <T> T await(Future<T> future) {
    return TaskStoreTesting.await(future);
  }

  protected static Throwable awaitFailure(Future<?> future) {
    return TaskStoreTesting.awaitFailure(future);
  }
}
