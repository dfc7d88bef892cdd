package io.mcpvertx.testing.stores.tasks;

import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.TaskUpdate;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.ACTIVE;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.ANY;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.ERROR;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.RACES;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.RESULT;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.answer;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.await;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.create;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.failureOf;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.owner;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.request;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.together;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Part of {@link TaskStoreContract}. Status transitions and completion: conditional, and final once terminal, even in
 * a race.
 */
interface TaskTransitionContract extends TaskStoreUnderTest {

  @Test
  default void movesBetweenWorkingAndInputRequired() {
    TaskStore store = storeUnderTest();
    TaskRecord task = create(store, owner());
    TaskUpdate waiting = await(store.transition(task.taskId(), Set.of(TaskStatus.WORKING),
        TaskStatus.INPUT_REQUIRED, "Waiting"));
    assertTrue(waiting.applied());
    assertEquals(TaskStatus.INPUT_REQUIRED, waiting.task().status());
    assertEquals("Waiting", waiting.task().statusMessage());
    TaskUpdate working = await(store.transition(task.taskId(), Set.of(TaskStatus.INPUT_REQUIRED),
        TaskStatus.WORKING, null));
    assertTrue(working.applied());
    assertEquals(TaskStatus.WORKING, working.task().status());
    assertNull(working.task().statusMessage(), "a null message clears the previous one");
    assertEquals(working.task(), await(store.get(task.taskId())));
  }

  @Test
  default void aTransitionFromAnotherStatusDoesNotApply() {
    TaskStore store = storeUnderTest();
    TaskRecord task = create(store, owner());
    TaskUpdate update = await(store.transition(task.taskId(), Set.of(TaskStatus.INPUT_REQUIRED),
        TaskStatus.WORKING, "Resumed"));
    assertFalse(update.applied());
    assertEquals(task, update.task(), "the task as it is, untouched");
    assertEquals(task, await(store.get(task.taskId())));
  }

  @Test
  default void everyActiveStatusCanEndInEveryTerminalStatus() {
    TaskStore store = storeUnderTest();
    String owner = owner();
    for (TaskStatus from : ACTIVE) {
      for (TaskStatus to : List.of(TaskStatus.COMPLETED, TaskStatus.FAILED, TaskStatus.CANCELLED)) {
        TaskRecord task = create(store, owner);
        if (from == TaskStatus.INPUT_REQUIRED) {
          await(store.requestInput(task.taskId(), Map.of("k", request("Name?")), null));
        }
        TaskUpdate update = to == TaskStatus.CANCELLED
            ? await(store.transition(task.taskId(), ACTIVE, to, "Stopped"))
            : await(store.complete(task.taskId(), to, to == TaskStatus.COMPLETED ? RESULT : null,
                to == TaskStatus.FAILED ? ERROR : null, "Stopped"));
        assertTrue(update.applied(), from + " -> " + to);
        assertEquals(to, update.task().status());
        assertEquals("Stopped", update.task().statusMessage());
        assertTrue(update.task().inputRequests().isEmpty(), "a terminal task has nothing outstanding");
        assertEquals(update.task(), await(store.get(task.taskId())));
      }
    }
  }

  @Test
  default void aTerminalTaskNeverChanges() {
    TaskStore store = storeUnderTest();
    String owner = owner();
    for (TaskStatus terminal : List.of(TaskStatus.COMPLETED, TaskStatus.FAILED, TaskStatus.CANCELLED)) {
      TaskRecord task = create(store, owner);
      await(store.requestInput(task.taskId(), Map.of("k", request("Name?")), null));
      TaskRecord settled = terminal == TaskStatus.CANCELLED
          ? await(store.transition(task.taskId(), ACTIVE, terminal, null)).task()
          : await(store.complete(task.taskId(), terminal, RESULT, null, null)).task();
      String id = task.taskId();
      List<TaskUpdate> attempts = List.of(
          await(store.transition(id, ANY, TaskStatus.WORKING, "Again")),
          await(store.transition(id, ANY, TaskStatus.CANCELLED, "Again")),
          await(store.complete(id, TaskStatus.COMPLETED, RESULT, null, "Again")),
          await(store.complete(id, TaskStatus.FAILED, null, ERROR, "Again")),
          await(store.requestInput(id, Map.of("other", request("Age?")), "Again")),
          await(store.respond(id, Map.of("k", answer("x")))));
      for (TaskUpdate attempt : attempts) {
        assertFalse(attempt.applied(), terminal + " changed");
        assertEquals(settled, attempt.task());
      }
      assertEquals(settled, await(store.get(id)));
    }
  }

  @Test
  default void aCompletionAfterACancellationLeavesTheTaskCancelled() {
    TaskStore store = storeUnderTest();
    TaskRecord task = create(store, owner());
    assertTrue(await(store.transition(task.taskId(), ACTIVE, TaskStatus.CANCELLED, "Cancelled")).applied());
    TaskUpdate late = await(store.complete(task.taskId(), TaskStatus.COMPLETED, RESULT, null, null));
    assertFalse(late.applied());
    assertEquals(TaskStatus.CANCELLED, late.task().status());
    TaskRecord read = await(store.get(task.taskId()));
    assertEquals(TaskStatus.CANCELLED, read.status());
    assertNull(read.result());
  }

  @Test
  default void aCancellationAfterACompletionLeavesTheTaskCompleted() {
    TaskStore store = storeUnderTest();
    TaskRecord task = create(store, owner());
    assertTrue(await(store.complete(task.taskId(), TaskStatus.COMPLETED, RESULT, null, null)).applied());
    TaskUpdate late = await(store.transition(task.taskId(), ACTIVE, TaskStatus.CANCELLED, "Cancelled"));
    assertFalse(late.applied());
    TaskRecord read = await(store.get(task.taskId()));
    assertEquals(TaskStatus.COMPLETED, read.status());
    assertEquals(RESULT, read.result());
  }

  @Test
  default void aCompletionRacingACancellationSettlesOnExactlyOne() {
    TaskStore store = storeUnderTest();
    String owner = owner();
    for (int i = 0; i < RACES; i++) {
      String id = create(store, owner).taskId();
      List<Future<TaskUpdate>> outcomes = together(List.of(
          () -> store.complete(id, TaskStatus.COMPLETED, RESULT, null, null),
          () -> store.transition(id, ACTIVE, TaskStatus.CANCELLED, "Cancelled")));
      TaskUpdate completed = await(outcomes.get(0));
      TaskUpdate cancelled = await(outcomes.get(1));
      assertTrue(completed.applied() ^ cancelled.applied(), "exactly one applies, round " + i);
      TaskRecord settled = await(store.get(id));
      TaskStatus winner = completed.applied() ? TaskStatus.COMPLETED : TaskStatus.CANCELLED;
      assertEquals(winner, settled.status());
      assertEquals(completed.applied() ? RESULT : null, settled.result());
      assertEquals(winner, (completed.applied() ? cancelled : completed).task().status(),
          "the loser sees the winner's outcome");
    }
  }

  @Test
  default void aCompletionStoresTheResult() {
    TaskStore store = storeUnderTest();
    TaskRecord task = create(store, owner());
    TaskUpdate update = await(store.complete(task.taskId(), TaskStatus.COMPLETED, RESULT, null, "Done"));
    assertTrue(update.applied());
    TaskRecord read = await(store.get(task.taskId()));
    assertEquals(TaskStatus.COMPLETED, read.status());
    assertEquals(RESULT, read.result());
    assertNull(read.error());
    assertEquals("Done", read.statusMessage());
  }

  @Test
  default void aFailureStoresTheError() {
    TaskStore store = storeUnderTest();
    TaskRecord task = create(store, owner());
    assertTrue(await(store.complete(task.taskId(), TaskStatus.FAILED, null, ERROR, null)).applied());
    TaskRecord read = await(store.get(task.taskId()));
    assertEquals(TaskStatus.FAILED, read.status());
    assertEquals(ERROR, read.error());
    assertNull(read.result());
  }

  @Test
  default void aFailureMayCarryAResult() {
    TaskStore store = storeUnderTest();
    TaskRecord task = create(store, owner());
    JsonObject toolError = RESULT.copy().put("isError", true);
    assertTrue(await(store.complete(task.taskId(), TaskStatus.FAILED, toolError, null, null)).applied());
    TaskRecord read = await(store.get(task.taskId()));
    assertEquals(TaskStatus.FAILED, read.status());
    assertEquals(toolError, read.result());
    assertNull(read.error());
  }

  @Test
  default void refusesACompletionThatDoesNotSettle() {
    TaskStore store = storeUnderTest();
    String id = create(store, owner()).taskId();
    assertInstanceOf(IllegalArgumentException.class,
        failureOf(() -> store.complete(id, TaskStatus.WORKING, RESULT, null, null)));
    assertInstanceOf(IllegalArgumentException.class,
        failureOf(() -> store.complete(id, TaskStatus.COMPLETED, null, null, null)));
    assertInstanceOf(IllegalArgumentException.class,
        failureOf(() -> store.complete(id, TaskStatus.FAILED, RESULT, ERROR, null)));
    assertEquals(TaskStatus.WORKING, await(store.get(id)).status());
  }
}
