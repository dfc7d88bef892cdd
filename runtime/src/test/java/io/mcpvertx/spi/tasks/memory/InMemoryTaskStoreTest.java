package io.mcpvertx.spi.tasks.memory;

import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskIds;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.testing.stores.tasks.TaskChangeRecorder;
import io.mcpvertx.testing.stores.tasks.TaskStoreContract;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.ACTIVE;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.answer;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.create;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.eventually;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.ids;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.on;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.owner;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract, with a purge every 50 ms so purges run while the contract's tests do, and what only the
 * in-memory store promises: the purge frees memory and stops on close. Those tests move a hand-driven clock.
 */
class InMemoryTaskStoreTest extends TaskStoreContract {

  private static final long TTL_MS = 1_000;

  private final AtomicLong now = new AtomicLong(1_000_000);
  private Vertx vertx;
  private InMemoryTaskStore store;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    store = InMemoryTaskStore.create(vertx, 50);
  }

  @AfterEach
  void stop() {
    await(store.close());
    await(vertx.close());
  }

  @Override
  protected TaskStore store() {
    return store;
  }

  @Override
  protected Vertx vertx() {
    return vertx;
  }

  /** A store on the hand-driven clock whose timer purges every {@code purgeIntervalMs}. */
  private InMemoryTaskStore storeOnClock(long purgeIntervalMs) {
    return InMemoryTaskStore.create(vertx, purgeIntervalMs, now::get);
  }

  private static NewTask expiring(String owner, int maxActive) {
    return new NewTask(TaskIds.generate(), owner, TTL_MS, null, null, maxActive);
  }

  @Test
  void aTaskExpiresTheMomentItsTtlHasPassed() {
    InMemoryTaskStore store = storeOnClock(60_000);
    TaskRecord task = await(store.create(expiring(owner(), 0)));
    now.addAndGet(TTL_MS - 1);
    assertNotNull(await(store.get(task.taskId())));
    now.incrementAndGet();
    assertNull(await(store.get(task.taskId())));
    await(store.close());
  }

  @Test
  void purgingFreesExpiredTasksAndKeepsTheOthers() {
    InMemoryTaskStore store = storeOnClock(60_000);
    String owner = owner();
    for (int i = 0; i < 100; i++) {
      await(store.create(expiring(owner, 0)));
    }
    String lasting = create(store, owner).taskId();
    now.addAndGet(TTL_MS);
    store.purge();
    assertEquals(1, store.size());
    assertEquals(List.of(lasting), ids(await(store.list(owner, null, 10))));
    await(store.close());
  }

  @Test
  void thePurgeTimerFreesExpiredTasks() {
    InMemoryTaskStore store = storeOnClock(10);
    for (int i = 0; i < 100; i++) {
      await(store.create(expiring(owner(), 0)));
    }
    now.addAndGet(TTL_MS);
    eventually(() -> store.size() == 0, "the timer purges");
    await(store.close());
  }

  @Test
  void closingStopsThePurgeTimer() throws InterruptedException {
    InMemoryTaskStore store = storeOnClock(10);
    await(store.close());
    await(store.create(expiring(owner(), 0)));
    now.addAndGet(TTL_MS);
    // Twenty purge intervals without a purge: nothing can show a timer that does not fire sooner.
    TimeUnit.MILLISECONDS.sleep(200);
    assertEquals(1, store.size());
  }

  @Test
  void aCreateAtTheLimitFreesTheOwnersExpiredTasks() {
    InMemoryTaskStore store = storeOnClock(60_000);
    String owner = owner();
    await(store.create(expiring(owner, 2)));
    await(store.create(expiring(owner, 2)));
    now.addAndGet(TTL_MS);
    await(store.create(expiring(owner, 2)));
    assertEquals(1, store.size());
    await(store.close());
  }

  @Test
  void lastUpdatedAtNeverGoesBackWhenTheClockDoes() {
    InMemoryTaskStore store = storeOnClock(60_000);
    TaskRecord task = create(store, owner());
    now.addAndGet(-500);
    TaskRecord changed = await(store.transition(task.taskId(), ACTIVE, TaskStatus.WORKING, "Busy")).task();
    assertEquals(task.lastUpdatedAt(), changed.lastUpdatedAt());
    await(store.close());
  }

  @Test
  void aListenerRegisteredOffAnyContextHearsOnAVertxContext() throws InterruptedException {
    BlockingQueue<Context> contexts = new LinkedBlockingQueue<>();
    TaskStore.Registration registration = await(store.listen(change -> contexts.add(Vertx.currentContext())));
    String id = create(store, owner()).taskId();
    await(store.transition(id, ACTIVE, TaskStatus.CANCELLED, null));
    Context heardOn = contexts.poll(10, TimeUnit.SECONDS);
    assertNotNull(heardOn, "the change was heard, on a Vert.x context");
    await(registration.unregister());
  }

  @Test
  void changesThatDoNotApplyAreNotAnnounced() {
    try (TaskChangeRecorder recorder = new TaskChangeRecorder(store, vertx.getOrCreateContext())) {
      String id = create(store, owner()).taskId();
      await(store.transition(id, Set.of(TaskStatus.INPUT_REQUIRED), TaskStatus.WORKING, null));
      await(store.respond(id, Map.of("never", answer("x"))));
      await(store.transition(id, ACTIVE, TaskStatus.CANCELLED, null));
      recorder.expect(id, TaskChange.Kind.STATUS, TaskStatus.CANCELLED);
      // The store queues a task's announcements in order, so anything before the cancellation has arrived.
      assertTrue(recorder.heard(id).isEmpty(), "heard " + recorder.heard(id));
    }
  }

  @Test
  void aListenerWhoseEventLoopIsGoneDoesNotHoldUpChanges() {
    Vertx gone = Vertx.vertx();
    Context context = gone.getOrCreateContext();
    await(on(context, () -> store.listen(change -> { })));
    await(gone.close());
    String id = create(store, owner()).taskId();
    for (int i = 0; i < 2; i++) {
      assertTrue(await(store.transition(id, ACTIVE, TaskStatus.WORKING, "Busy " + i)).applied());
    }
  }
}
