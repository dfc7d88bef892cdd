package io.mcpvertx.testing.stores.tasks;

import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.TaskStoreException.Reason;
import io.mcpvertx.spi.tasks.TaskUpdate;
import io.vertx.core.Future;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.ACTIVE;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.RACES;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.answer;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.await;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.awaitFailure;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.create;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.owner;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.reason;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.request;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.together;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Part of {@link TaskStoreContract}. Input requests and responses: keys unique over a task's lifetime, each answered
 * once.
 */
interface TaskInputContract extends TaskStoreUnderTest {

  @Test
  default void requestingInputMakesAWorkingTaskWaitForIt() {
    TaskStore store = storeUnderTest();
    TaskRecord task = create(store, owner());
    TaskUpdate update = await(store.requestInput(task.taskId(), Map.of("name", request("Name?")), "Asking"));
    assertTrue(update.applied());
    TaskRecord read = await(store.get(task.taskId()));
    assertEquals(TaskStatus.INPUT_REQUIRED, read.status());
    assertEquals("Asking", read.statusMessage());
    assertEquals(Map.of("name", request("Name?")), read.inputRequests());
  }

  @Test
  default void moreInputMayBeRequestedWhileSomeIsOutstanding() {
    TaskStore store = storeUnderTest();
    TaskRecord task = create(store, owner());
    await(store.requestInput(task.taskId(), Map.of("name", request("Name?")), null));
    assertTrue(await(store.requestInput(task.taskId(), Map.of("age", request("Age?")), null)).applied());
    TaskRecord read = await(store.get(task.taskId()));
    assertEquals(TaskStatus.INPUT_REQUIRED, read.status());
    assertEquals(Set.of("name", "age"), read.inputRequests().keySet());
  }

  @Test
  default void anOutstandingKeyCannotBeRequestedAgain() {
    TaskStore store = storeUnderTest();
    TaskRecord task = create(store, owner());
    TaskRecord waiting = await(store.requestInput(task.taskId(), Map.of("name", request("Name?")), null)).task();
    Throwable failure = awaitFailure(store.requestInput(task.taskId(),
        Map.of("name", request("Name again?"), "age", request("Age?")), null));
    assertEquals(Reason.KEY_REUSED, reason(failure));
    assertEquals(waiting, await(store.get(task.taskId())), "nothing was added");
  }

  @Test
  default void anAnsweredKeyCannotBeRequestedAgain() {
    TaskStore store = storeUnderTest();
    TaskRecord task = create(store, owner());
    await(store.requestInput(task.taskId(), Map.of("name", request("Name?")), null));
    TaskRecord answered = await(store.respond(task.taskId(), Map.of("name", answer("Ada")))).task();
    Throwable failure = awaitFailure(store.requestInput(task.taskId(), Map.of("name", request("Name?")), null));
    assertEquals(Reason.KEY_REUSED, reason(failure));
    assertEquals(answered, await(store.get(task.taskId())));
  }

  @Test
  default void responsesToKeysNotOutstandingAreIgnored() {
    TaskStore store = storeUnderTest();
    TaskRecord task = create(store, owner());
    assertFalse(await(store.respond(task.taskId(), Map.of("never", answer("x")))).applied(), "nothing asked");
    TaskRecord waiting = await(store.requestInput(task.taskId(), Map.of("name", request("Name?")), null)).task();
    TaskUpdate update = await(store.respond(task.taskId(), Map.of("never", answer("x"))));
    assertFalse(update.applied());
    assertEquals(waiting, update.task());
    assertEquals(waiting, await(store.get(task.taskId())));
  }

  @Test
  default void aPartialAnswerKeepsTheTaskWaiting() {
    TaskStore store = storeUnderTest();
    TaskRecord task = create(store, owner());
    await(store.requestInput(task.taskId(), Map.of("name", request("Name?"), "age", request("Age?")), null));
    TaskUpdate update = await(store.respond(task.taskId(), Map.of("name", answer("Ada"), "never", answer("x"))));
    assertTrue(update.applied());
    TaskRecord read = await(store.get(task.taskId()));
    assertEquals(TaskStatus.INPUT_REQUIRED, read.status());
    assertEquals(Set.of("age"), read.inputRequests().keySet());
    assertEquals(Map.of("name", answer("Ada")), read.inputResponses());
  }

  @Test
  default void answeringEveryRequestResumesTheTask() {
    TaskStore store = storeUnderTest();
    TaskRecord task = create(store, owner());
    await(store.requestInput(task.taskId(), Map.of("name", request("Name?"), "age", request("Age?")), null));
    await(store.respond(task.taskId(), Map.of("name", answer("Ada"))));
    assertTrue(await(store.respond(task.taskId(), Map.of("age", answer("36")))).applied());
    TaskRecord read = await(store.get(task.taskId()));
    assertEquals(TaskStatus.WORKING, read.status());
    assertTrue(read.inputRequests().isEmpty());
    assertEquals(Map.of("name", answer("Ada"), "age", answer("36")), read.inputResponses());
  }

  @Test
  default void aKeyIsAnsweredOnce() {
    TaskStore store = storeUnderTest();
    TaskRecord task = create(store, owner());
    await(store.requestInput(task.taskId(), Map.of("name", request("Name?"), "age", request("Age?")), null));
    await(store.respond(task.taskId(), Map.of("name", answer("Ada"))));
    assertFalse(await(store.respond(task.taskId(), Map.of("name", answer("Grace")))).applied());
    assertEquals(Map.of("name", answer("Ada")), await(store.get(task.taskId())).inputResponses());
  }

  @Test
  default void concurrentAnswersToOneKeyTakeOne() {
    TaskStore store = storeUnderTest();
    String owner = owner();
    for (int i = 0; i < RACES; i++) {
      String id = create(store, owner).taskId();
      await(store.requestInput(id, Map.of("k", request("Name?")), null));
      List<Future<TaskUpdate>> outcomes = together(List.of(
          () -> store.respond(id, Map.of("k", answer("a"))),
          () -> store.respond(id, Map.of("k", answer("b")))));
      boolean firstTaken = await(outcomes.get(0)).applied();
      assertTrue(firstTaken ^ await(outcomes.get(1)).applied(), "exactly one answer is taken, round " + i);
      assertEquals(Map.of("k", answer(firstTaken ? "a" : "b")), await(store.get(id)).inputResponses());
    }
  }

  @Test
  default void endingATaskDropsItsOutstandingRequestsAndKeepsItsResponses() {
    TaskStore store = storeUnderTest();
    TaskRecord task = create(store, owner());
    await(store.requestInput(task.taskId(), Map.of("name", request("Name?"), "age", request("Age?")), null));
    await(store.respond(task.taskId(), Map.of("name", answer("Ada"))));
    await(store.transition(task.taskId(), ACTIVE, TaskStatus.CANCELLED, null));
    TaskRecord read = await(store.get(task.taskId()));
    assertTrue(read.inputRequests().isEmpty());
    assertEquals(Map.of("name", answer("Ada")), read.inputResponses());
  }
}
