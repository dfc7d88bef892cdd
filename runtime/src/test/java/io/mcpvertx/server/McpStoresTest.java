package io.mcpvertx.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.spi.EventStore;
import io.mcpvertx.testing.ForwardingEventStore;
import io.mcpvertx.spi.leases.memory.InMemoryLeaseStore;
import io.mcpvertx.spi.memory.InMemoryEventStore;
import io.mcpvertx.spi.sessions.memory.InMemorySessionStore;
import io.mcpvertx.spi.tasks.memory.InMemoryTaskStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class McpStoresTest {

  @Test
  void inMemoryStoresKeepSessionsInTheirEndpoint(Vertx vertx, VertxTestContext test) {
    McpStores stores = McpStores.inMemory(vertx);
    assertFalse(stores.sessions().isPresent());
    assertTrue(stores.tasks() instanceof InMemoryTaskStore);
    assertTrue(stores.events() instanceof InMemoryEventStore);
    assertTrue(stores.leases() instanceof InMemoryLeaseStore);
    stores.ping().compose(v -> stores.close()).onComplete(test.succeedingThenComplete());
  }

  @Test
  void theBuilderKeepsWhatItIsGivenAndFillsInTheRest(Vertx vertx) {
    InMemorySessionStore sessions = InMemorySessionStore.create(vertx);
    InMemoryEventStore events = new InMemoryEventStore(5, 2, 1_000);
    McpStores stores = McpStores.builder(vertx).sessions(sessions).events(events).build();
    assertSame(sessions, stores.sessions().orElseThrow());
    assertSame(events, stores.events());
    assertTrue(stores.tasks() instanceof InMemoryTaskStore);
    stores.close();
  }

  @Test
  void aServerAndItsTransportsUseTheStoresItWasGiven(Vertx vertx) {
    McpStores stores = McpStores.inMemory(vertx);
    assertSame(stores, McpServer.create(vertx, new McpServerOptions(), stores).stores());
    stores.close();
  }

  @Test
  void pingFailsWhenOneStoreFails(Vertx vertx, VertxTestContext test) {
    EventStore down = new InMemoryEventStoreThatIsDown();
    McpStores.builder(vertx).events(down).build().ping()
        .onComplete(test.failingThenComplete());
  }

  /** An event store whose readiness check fails. */
  private static final class InMemoryEventStoreThatIsDown extends ForwardingEventStore {

    InMemoryEventStoreThatIsDown() {
      super(new InMemoryEventStore());
    }

    @Override
    public Future<Void> ping() {
      return Future.failedFuture(new IllegalStateException("down"));
    }
  }
}
