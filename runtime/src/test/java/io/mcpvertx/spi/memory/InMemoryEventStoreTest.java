package io.mcpvertx.spi.memory;

import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.UnknownEventException;
import io.mcpvertx.testing.stores.EventStoreContract;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

class InMemoryEventStoreTest extends EventStoreContract {

  @Override
  protected EventStore store() {
    return new InMemoryEventStore(10, 4, 60_000);
  }

  @Test
  void keepsOnlyTheNewestEventsOfAStreamAndForgetsIdsBeforeThem() {
    InMemoryEventStore store = new InMemoryEventStore(3, 4, 60_000);
    String first = await(store.append("s", "a", Buffer.buffer("1")));
    String second = await(store.append("s", "a", Buffer.buffer("2")));
    for (int i = 3; i <= 5; i++) {
      await(store.append("s", "a", Buffer.buffer(String.valueOf(i))));
    }
    // Events 3, 4 and 5 remain: resuming after 2 loses nothing; resuming after 1 would, so it is refused.
    assertEquals(List.of("3", "4", "5"), texts(await(store.replayAfter("s", second))));
    assertInstanceOf(UnknownEventException.class, awaitFailure(store.replayAfter("s", first)));
  }

  @Test
  void forgetsEventsOlderThanTheRetentionAge() {
    AtomicLong now = new AtomicLong(1_000);
    InMemoryEventStore store = new InMemoryEventStore(10, 4, 100, now::get);
    String first = await(store.append("s", "a", Buffer.buffer("1")));
    await(store.append("s", "a", Buffer.buffer("2")));
    now.addAndGet(101);
    assertInstanceOf(UnknownEventException.class, awaitFailure(store.replayAfter("s", first)));
  }

  @Test
  void dropsTheOldestStreamWhenASessionHasTooMany() {
    InMemoryEventStore store = new InMemoryEventStore(10, 2, 60_000);
    String a = await(store.append("s", "a", Buffer.buffer("a")));
    await(store.append("s", "b", Buffer.buffer("b")));
    await(store.append("s", "c", Buffer.buffer("c")));
    assertInstanceOf(UnknownEventException.class, awaitFailure(store.replayAfter("s", a)));
  }

  @Test
  void removedSessionsLeaveNothingBehind() {
    InMemoryEventStore store = new InMemoryEventStore(10, 4, 60_000);
    for (int i = 0; i < 100; i++) {
      await(store.append("s" + i, "a", Buffer.buffer("x")));
      await(store.removeSession("s" + i));
    }
    assertEquals(0, store.sessionCount());
  }
}
