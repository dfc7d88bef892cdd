package io.mcpvertx.testing.stores.tasks;

import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskIds;
import io.mcpvertx.spi.tasks.TaskPage;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.TaskStoreException.Reason;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.ACTIVE;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.ANY;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.RESULT;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.answer;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.assertMissing;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.await;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.awaitFailure;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.createExpiring;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.createMany;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.eventually;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.ids;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.outcome;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.newTask;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.owner;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.reason;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.request;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.together;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Part of {@link TaskStoreContract}. What bounds tasks: their TTL, after which they are missing everywhere, and the
 * owner's limit of active tasks.
 */
interface TaskLimitsContract extends TaskStoreUnderTest {

  @Test
  default void aTaskExpiresItsTtlAfterCreation() {
    TaskStore store = storeUnderTest();
    TaskRecord task = await(store.create(newTask(store, owner(), 60_000L, null, null, 0)));
    assertEquals(task.createdAt() + 60_000, task.expiresAt());
    assertEquals(task, await(store.get(task.taskId())));
  }

  @Test
  default void anExpiredTaskReadsAsMissingEverywhere() {
    TaskStore store = storeUnderTest();
    String owner = owner();
    String id = createExpiring(store, owner, 0).taskId();
    eventually(() -> await(store.get(id)) == null, "the task expires");
    assertMissing(await(store.transition(id, ANY, TaskStatus.CANCELLED, null)));
    assertMissing(await(store.complete(id, TaskStatus.COMPLETED, RESULT, null, null)));
    assertMissing(await(store.requestInput(id, Map.of("k", request("Name?")), null)));
    assertMissing(await(store.respond(id, Map.of("k", answer("x")))));
    assertTrue(await(store.list(owner, null, 10)).tasks().isEmpty());
  }

  @Test
  default void expiredTasksDoNotCountTowardTheOwnersLimit() {
    TaskStore store = storeUnderTest();
    String owner = owner();
    String expiring = createExpiring(store, owner, 1).taskId();
    eventually(() -> await(store.get(expiring)) == null, "the task expires");
    TaskRecord next = await(store.create(new NewTask(store.newTaskId(owner), owner, null, null, null, 1)));
    assertEquals(TaskStatus.WORKING, next.status());
  }

  @Test
  default void anAbandonedTaskIsGoneAndNoLongerCountsTowardTheOwnersLimit() {
    TaskStore store = storeUnderTest();
    String owner = owner();
    NewTask task = new NewTask(store.newTaskId(owner), owner, 60_000L, null, null, 1);
    await(store.create(task));
    await(store.abandon(task));
    assertEquals(null, await(store.get(task.taskId())));
    assertTrue(await(store.list(owner, null, 10)).tasks().isEmpty());
    TaskRecord next = await(store.create(new NewTask(store.newTaskId(owner), owner, 60_000L, null, null, 1)));
    assertEquals(TaskStatus.WORKING, next.status());
  }

  @Test
  default void abandoningATaskThatWasNeverCreatedSucceeds() {
    TaskStore store = storeUnderTest();
    String owner = owner();
    String kept = await(store.create(new NewTask(store.newTaskId(owner), owner, 60_000L, null, null, 0))).taskId();
    await(store.abandon(new NewTask(store.newTaskId(owner), owner, 60_000L, null, null, 0)));
    assertEquals(List.of(kept), ids(await(store.list(owner, null, 10))));
  }

  @Test
  default void aCursorStaysValidWhenTheTasksBeforeItExpire() {
    TaskStore store = storeUnderTest();
    String owner = owner();
    String expiring = createExpiring(store, owner, 0).taskId();
    List<String> lasting = createMany(store, owner, 2);
    TaskPage first = await(store.list(owner, null, 1));
    Assumptions.assumeTrue(ids(first).equals(List.of(expiring)), "the first task expired before it was listed");
    eventually(() -> await(store.get(expiring)) == null, "the task expires");
    TaskPage rest = await(store.list(owner, first.nextCursor(), 10));
    assertEquals(lasting, ids(rest));
    assertEquals(lasting, ids(await(store.list(owner, null, 10))));
  }

  @Test
  default void anOwnerMayHaveOnlyItsLimitOfActiveTasks() {
    TaskStore store = storeUnderTest();
    String owner = owner();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ids.add(await(store.create(new NewTask(store.newTaskId(owner), owner, null, null, null, 3))).taskId());
    }
    Throwable refused = awaitFailure(store.create(new NewTask(store.newTaskId(owner), owner, null, null, null, 3)));
    assertEquals(Reason.LIMIT_EXCEEDED, reason(refused));
    await(store.create(newTask(store, owner(), null, null, null, 3)));

    await(store.complete(ids.get(0), TaskStatus.COMPLETED, RESULT, null, null));
    await(store.create(new NewTask(store.newTaskId(owner), owner, null, null, null, 3)));
    await(store.transition(ids.get(1), ACTIVE, TaskStatus.CANCELLED, null));
    await(store.create(new NewTask(store.newTaskId(owner), owner, null, null, null, 3)));
    assertEquals(Reason.LIMIT_EXCEEDED,
        reason(awaitFailure(store.create(new NewTask(store.newTaskId(owner), owner, null, null, null, 3)))));
    assertEquals(5, await(store.list(owner, null, 10)).tasks().size());
  }

  @Test
  default void aLimitOfZeroMeansNoLimit() {
    TaskStore store = storeUnderTest();
    String owner = owner();
    assertEquals(20, createMany(store, owner, 20).size());
  }

  @Test
  default void concurrentCreatesStayWithinTheLimit() {
    TaskStore store = storeUnderTest();
    for (int round = 0; round < 20; round++) {
      String owner = owner();
      List<Supplier<Future<TaskRecord>>> creates = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        creates.add(() -> store.create(new NewTask(store.newTaskId(owner), owner, null, null, null, 3)));
      }
      int created = 0;
      for (Future<TaskRecord> create : together(creates)) {
        Throwable failure = outcome(create);
        if (failure == null) {
          created++;
        } else {
          assertEquals(Reason.LIMIT_EXCEEDED, reason(failure));
        }
      }
      assertEquals(3, created, "round " + round);
    }
  }
}
