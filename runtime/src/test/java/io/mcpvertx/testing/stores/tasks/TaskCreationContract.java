package io.mcpvertx.testing.stores.tasks;

import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskIds;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.TaskStoreException.Reason;
import io.mcpvertx.spi.tasks.TaskUpdate;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.ACTIVE;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.ANY;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.RESULT;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.answer;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.assertMissing;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.await;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.awaitFailure;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.create;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.newTask;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.owner;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.reason;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Part of {@link TaskStoreContract}. Creating tasks and reading them back, and what every applied change stamps. */
interface TaskCreationContract extends TaskStoreUnderTest {

  @Test
  default void aCreatedTaskIsWorkingAndReadsBackAsCreated() {
    TaskStore store = storeUnderTest();
    String owner = owner();
    JsonObject metadata = new JsonObject().put("method", "tools/call").put("tool", "slow");
    NewTask task = new NewTask(store.newTaskId(owner), owner, 60_000L, 500L, metadata, 0);
    TaskRecord created = await(store.create(task));
    assertEquals(task.taskId(), created.taskId());
    assertEquals(owner, created.owner());
    assertEquals(TaskStatus.WORKING, created.status());
    assertNull(created.statusMessage());
    assertEquals(created.createdAt(), created.lastUpdatedAt());
    assertEquals(60_000L, created.ttlMs());
    assertEquals(500L, created.pollIntervalMs());
    assertEquals(metadata, created.metadata());
    assertNull(created.result());
    assertNull(created.error());
    assertTrue(created.inputRequests().isEmpty());
    assertTrue(created.inputResponses().isEmpty());
    assertEquals(created, await(store.get(task.taskId())));
  }

  @Test
  default void aTaskWithoutTtlNeverExpires() {
    TaskStore store = storeUnderTest();
    TaskRecord created = await(store.create(newTask(store, owner(), null, null, null, 0)));
    TaskRecord read = await(store.get(created.taskId()));
    assertNull(read.ttlMs());
    assertNull(read.pollIntervalMs());
    assertEquals(Long.MAX_VALUE, read.expiresAt());
  }

  @Test
  default void refusesATakenIdWhoeverAsks() {
    TaskStore store = storeUnderTest();
    String owner = owner();
    TaskRecord first = create(store, owner);
    for (String anyone : List.of(owner, owner())) {
      Throwable failure = awaitFailure(store.create(new NewTask(first.taskId(), anyone, null, null, null, 0)));
      assertEquals(Reason.DUPLICATE_ID, reason(failure));
    }
    assertEquals(first, await(store.get(first.taskId())));
  }

  @Test
  default void anUnknownTaskIsMissing() {
    TaskStore store = storeUnderTest();
    String unknown = TaskIds.generate();
    assertNull(await(store.get(unknown)));
    assertMissing(await(store.transition(unknown, ANY, TaskStatus.CANCELLED, null)));
    assertMissing(await(store.complete(unknown, TaskStatus.COMPLETED, RESULT, null, null)));
    assertMissing(await(store.requestInput(unknown, Map.of("k", request("Name?")), null)));
    assertMissing(await(store.respond(unknown, Map.of("k", answer("x")))));
  }

  @Test
  default void changingJsonAfterwardsDoesNotChangeTheStoredTask() {
    TaskStore store = storeUnderTest();
    JsonObject metadata = new JsonObject().put("tool", "slow");
    TaskRecord created = await(store.create(newTask(store, owner(), null, null, metadata, 0)));
    metadata.put("tool", "changed by the caller");
    created.metadata().put("tool", "changed by a reader");
    JsonObject result = RESULT.copy();
    TaskUpdate completed = await(store.complete(created.taskId(), TaskStatus.COMPLETED, result, null, null));
    result.put("extra", true);
    completed.task().result().put("_meta", new JsonObject());
    TaskRecord read = await(store.get(created.taskId()));
    assertEquals(new JsonObject().put("tool", "slow"), read.metadata());
    assertEquals(RESULT, read.result());
  }

  @Test
  default void everyAppliedChangeMovesLastUpdatedAtAndNothingMovesCreatedAt() throws InterruptedException {
    TaskStore store = storeUnderTest();
    TaskRecord task = create(store, owner());
    String id = task.taskId();
    List<Supplier<Future<TaskUpdate>>> changes = List.of(
        () -> store.requestInput(id, Map.of("k", request("Name?")), null),
        () -> store.respond(id, Map.of("k", answer("Ada"))),
        () -> store.transition(id, ACTIVE, TaskStatus.WORKING, "Still working"),
        () -> store.complete(id, TaskStatus.COMPLETED, RESULT, null, null));
    TaskRecord previous = task;
    for (Supplier<Future<TaskUpdate>> change : changes) {
      TimeUnit.MILLISECONDS.sleep(20);
      TaskRecord changed = await(change.get()).task();
      assertTrue(changed.lastUpdatedAt() > previous.lastUpdatedAt(), "lastUpdatedAt moves on");
      assertEquals(task.createdAt(), changed.createdAt());
      previous = changed;
    }
    TimeUnit.MILLISECONDS.sleep(20);
    await(store.transition(id, ANY, TaskStatus.CANCELLED, null));
    assertEquals(previous.lastUpdatedAt(), await(store.get(id)).lastUpdatedAt(), "a change that did not apply");
  }
}
