package io.mcpvertx.spi.sessions.memory;

import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.spi.sessions.SessionStore;
import io.mcpvertx.testing.stores.SessionStoreContract;
import io.vertx.core.Vertx;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class InMemorySessionStoreTest extends SessionStoreContract {

  private static Vertx vertx;
  private static InMemorySessionStore store;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    store = InMemorySessionStore.create(vertx, 50, System::currentTimeMillis);
  }

  @AfterAll
  static void stop() throws Exception {
    store.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Override
  protected SessionStore store() {
    return store;
  }

  @Test
  void thePurgeFreesExpiredSessions() throws InterruptedException {
    AtomicLong now = new AtomicLong(1_000);
    InMemorySessionStore local = InMemorySessionStore.create(vertx, 20, now::get);
    try {
      await(local.put(new SessionRecord("s", "OPERATING", null, null, null, Set.of(), null, 0), 100));
      assertEquals(1, local.size());
      now.addAndGet(101);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (local.size() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertEquals(0, local.size());
    } finally {
      local.close();
    }
  }
}
