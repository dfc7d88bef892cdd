package io.mcpvertx.spi.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.spi.tasks.TaskChange.Kind;
import io.mcpvertx.spi.tasks.TaskStoreException.Reason;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * What every {@link TaskStore} must do, whatever keeps the tasks. A store implementation's test extends this
 * class and says which store to test and on which Vert.x instance.
 *
 * <p>The suite uses only the SPI, so a store backed by a server can run it unchanged: the store may be shared by
 * every test (each test makes its own owners and ids), and expiry is tested with short real TTLs and bounded
 * polling, never with a clock the suite controls or a timing threshold.
 */
public abstract class TaskStoreContract {

  /** How long a test waits for something that should happen soon. */
  private static final long PATIENCE_MS = 10_000;
  /** A TTL short enough to wait for. */
  private static final long SHORT_TTL_MS = 300;
  /** How many times a race is run, for the rare interleaving to show. */
  private static final int RACES = 200;

  protected static final Set<TaskStatus> ACTIVE = EnumSet.of(TaskStatus.WORKING, TaskStatus.INPUT_REQUIRED);
  protected static final Set<TaskStatus> ANY = EnumSet.allOf(TaskStatus.class);
  protected static final JsonObject RESULT = new JsonObject()
      .put("content", new JsonArray().add(new JsonObject().put("type", "text").put("text", "done")));
  protected static final JsonObject ERROR = new JsonObject().put("code", -32603).put("message", "Tool crashed");

  /** The store to test; it may be shared by every test. */
  protected abstract TaskStore store();

  /** The Vert.x instance the store uses; the suite's listeners and concurrent callers run on its contexts. */
  protected abstract Vertx vertx();

  // --- creating and reading ---

  @Test
  void aCreatedTaskIsWorkingAndReadsBackAsCreated() {
    TaskStore store = store();
    String owner = owner();
    JsonObject metadata = new JsonObject().put("method", "tools/call").put("tool", "slow");
    NewTask task = new NewTask(TaskIds.generate(), owner, 60_000L, 500L, metadata, 0);
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
  void aTaskWithoutTtlNeverExpires() {
    TaskStore store = store();
    TaskRecord created = await(store.create(new NewTask(TaskIds.generate(), owner(), null, null, null, 0)));
    TaskRecord read = await(store.get(created.taskId()));
    assertNull(read.ttlMs());
    assertNull(read.pollIntervalMs());
    assertEquals(Long.MAX_VALUE, read.expiresAt());
  }

  @Test
  void refusesATakenIdWhoeverAsks() {
    TaskStore store = store();
    String owner = owner();
    TaskRecord first = create(store, owner);
    for (String anyone : List.of(owner, owner())) {
      Throwable failure = awaitFailure(store.create(new NewTask(first.taskId(), anyone, null, null, null, 0)));
      assertEquals(Reason.DUPLICATE_ID, reason(failure));
    }
    assertEquals(first, await(store.get(first.taskId())));
  }

  @Test
  void anUnknownTaskIsMissing() {
    TaskStore store = store();
    String unknown = TaskIds.generate();
    assertNull(await(store.get(unknown)));
    assertMissing(await(store.transition(unknown, ANY, TaskStatus.CANCELLED, null)));
    assertMissing(await(store.complete(unknown, TaskStatus.COMPLETED, RESULT, null, null)));
    assertMissing(await(store.requestInput(unknown, Map.of("k", request("Name?")), null)));
    assertMissing(await(store.respond(unknown, Map.of("k", answer("x")))));
  }

  @Test
  void changingJsonAfterwardsDoesNotChangeTheStoredTask() {
    TaskStore store = store();
    JsonObject metadata = new JsonObject().put("tool", "slow");
    TaskRecord created = await(store.create(new NewTask(TaskIds.generate(), owner(), null, null, metadata, 0)));
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

  // --- status transitions ---

  @Test
  void movesBetweenWorkingAndInputRequired() {
    TaskStore store = store();
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
  void aTransitionFromAnotherStatusDoesNotApply() {
    TaskStore store = store();
    TaskRecord task = create(store, owner());
    TaskUpdate update = await(store.transition(task.taskId(), Set.of(TaskStatus.INPUT_REQUIRED),
        TaskStatus.WORKING, "Resumed"));
    assertFalse(update.applied());
    assertEquals(task, update.task(), "the task as it is, untouched");
    assertEquals(task, await(store.get(task.taskId())));
  }

  @Test
  void everyActiveStatusCanEndInEveryTerminalStatus() {
    TaskStore store = store();
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
  void aTerminalTaskNeverChanges() {
    TaskStore store = store();
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
  void aCompletionAfterACancellationLeavesTheTaskCancelled() {
    TaskStore store = store();
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
  void aCancellationAfterACompletionLeavesTheTaskCompleted() {
    TaskStore store = store();
    TaskRecord task = create(store, owner());
    assertTrue(await(store.complete(task.taskId(), TaskStatus.COMPLETED, RESULT, null, null)).applied());
    TaskUpdate late = await(store.transition(task.taskId(), ACTIVE, TaskStatus.CANCELLED, "Cancelled"));
    assertFalse(late.applied());
    TaskRecord read = await(store.get(task.taskId()));
    assertEquals(TaskStatus.COMPLETED, read.status());
    assertEquals(RESULT, read.result());
  }

  @Test
  void aCompletionRacingACancellationSettlesOnExactlyOne() {
    TaskStore store = store();
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

  // --- completion ---

  @Test
  void aCompletionStoresTheResult() {
    TaskStore store = store();
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
  void aFailureStoresTheError() {
    TaskStore store = store();
    TaskRecord task = create(store, owner());
    assertTrue(await(store.complete(task.taskId(), TaskStatus.FAILED, null, ERROR, null)).applied());
    TaskRecord read = await(store.get(task.taskId()));
    assertEquals(TaskStatus.FAILED, read.status());
    assertEquals(ERROR, read.error());
    assertNull(read.result());
  }

  @Test
  void aFailureMayCarryAResult() {
    TaskStore store = store();
    TaskRecord task = create(store, owner());
    JsonObject toolError = RESULT.copy().put("isError", true);
    assertTrue(await(store.complete(task.taskId(), TaskStatus.FAILED, toolError, null, null)).applied());
    TaskRecord read = await(store.get(task.taskId()));
    assertEquals(TaskStatus.FAILED, read.status());
    assertEquals(toolError, read.result());
    assertNull(read.error());
  }

  @Test
  void refusesACompletionThatDoesNotSettle() {
    TaskStore store = store();
    String id = create(store, owner()).taskId();
    assertInstanceOf(IllegalArgumentException.class,
        failureOf(() -> store.complete(id, TaskStatus.WORKING, RESULT, null, null)));
    assertInstanceOf(IllegalArgumentException.class,
        failureOf(() -> store.complete(id, TaskStatus.COMPLETED, null, null, null)));
    assertInstanceOf(IllegalArgumentException.class,
        failureOf(() -> store.complete(id, TaskStatus.FAILED, RESULT, ERROR, null)));
    assertEquals(TaskStatus.WORKING, await(store.get(id)).status());
  }

  // --- input requests and responses ---

  @Test
  void requestingInputMakesAWorkingTaskWaitForIt() {
    TaskStore store = store();
    TaskRecord task = create(store, owner());
    TaskUpdate update = await(store.requestInput(task.taskId(), Map.of("name", request("Name?")), "Asking"));
    assertTrue(update.applied());
    TaskRecord read = await(store.get(task.taskId()));
    assertEquals(TaskStatus.INPUT_REQUIRED, read.status());
    assertEquals("Asking", read.statusMessage());
    assertEquals(Map.of("name", request("Name?")), read.inputRequests());
  }

  @Test
  void moreInputMayBeRequestedWhileSomeIsOutstanding() {
    TaskStore store = store();
    TaskRecord task = create(store, owner());
    await(store.requestInput(task.taskId(), Map.of("name", request("Name?")), null));
    assertTrue(await(store.requestInput(task.taskId(), Map.of("age", request("Age?")), null)).applied());
    TaskRecord read = await(store.get(task.taskId()));
    assertEquals(TaskStatus.INPUT_REQUIRED, read.status());
    assertEquals(Set.of("name", "age"), read.inputRequests().keySet());
  }

  @Test
  void anOutstandingKeyCannotBeRequestedAgain() {
    TaskStore store = store();
    TaskRecord task = create(store, owner());
    TaskRecord waiting = await(store.requestInput(task.taskId(), Map.of("name", request("Name?")), null)).task();
    Throwable failure = awaitFailure(store.requestInput(task.taskId(),
        Map.of("name", request("Name again?"), "age", request("Age?")), null));
    assertEquals(Reason.KEY_REUSED, reason(failure));
    assertEquals(waiting, await(store.get(task.taskId())), "nothing was added");
  }

  @Test
  void anAnsweredKeyCannotBeRequestedAgain() {
    TaskStore store = store();
    TaskRecord task = create(store, owner());
    await(store.requestInput(task.taskId(), Map.of("name", request("Name?")), null));
    TaskRecord answered = await(store.respond(task.taskId(), Map.of("name", answer("Ada")))).task();
    Throwable failure = awaitFailure(store.requestInput(task.taskId(), Map.of("name", request("Name?")), null));
    assertEquals(Reason.KEY_REUSED, reason(failure));
    assertEquals(answered, await(store.get(task.taskId())));
  }

  @Test
  void responsesToKeysNotOutstandingAreIgnored() {
    TaskStore store = store();
    TaskRecord task = create(store, owner());
    assertFalse(await(store.respond(task.taskId(), Map.of("never", answer("x")))).applied(), "nothing asked");
    TaskRecord waiting = await(store.requestInput(task.taskId(), Map.of("name", request("Name?")), null)).task();
    TaskUpdate update = await(store.respond(task.taskId(), Map.of("never", answer("x"))));
    assertFalse(update.applied());
    assertEquals(waiting, update.task());
    assertEquals(waiting, await(store.get(task.taskId())));
  }

  @Test
  void aPartialAnswerKeepsTheTaskWaiting() {
    TaskStore store = store();
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
  void answeringEveryRequestResumesTheTask() {
    TaskStore store = store();
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
  void aKeyIsAnsweredOnce() {
    TaskStore store = store();
    TaskRecord task = create(store, owner());
    await(store.requestInput(task.taskId(), Map.of("name", request("Name?"), "age", request("Age?")), null));
    await(store.respond(task.taskId(), Map.of("name", answer("Ada"))));
    assertFalse(await(store.respond(task.taskId(), Map.of("name", answer("Grace")))).applied());
    assertEquals(Map.of("name", answer("Ada")), await(store.get(task.taskId())).inputResponses());
  }

  @Test
  void concurrentAnswersToOneKeyTakeOne() {
    TaskStore store = store();
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
  void endingATaskDropsItsOutstandingRequestsAndKeepsItsResponses() {
    TaskStore store = store();
    TaskRecord task = create(store, owner());
    await(store.requestInput(task.taskId(), Map.of("name", request("Name?"), "age", request("Age?")), null));
    await(store.respond(task.taskId(), Map.of("name", answer("Ada"))));
    await(store.transition(task.taskId(), ACTIVE, TaskStatus.CANCELLED, null));
    TaskRecord read = await(store.get(task.taskId()));
    assertTrue(read.inputRequests().isEmpty());
    assertEquals(Map.of("name", answer("Ada")), read.inputResponses());
  }

  // --- listing ---

  @Test
  void listsAnOwnersTasksOldestFirstAndNoOneElses() {
    TaskStore store = store();
    String owner = owner();
    List<String> ids = createMany(store, owner, 3);
    create(store, owner());
    TaskPage page = await(store.list(owner, null, 10));
    assertEquals(ids, ids(page));
    assertNull(page.nextCursor());
  }

  @Test
  void pagesThroughAnOwnersTasksWithCursors() {
    TaskStore store = store();
    String owner = owner();
    List<String> ids = createMany(store, owner, 5);
    TaskPage first = await(store.list(owner, null, 2));
    assertEquals(ids.subList(0, 2), ids(first));
    assertNotNull(first.nextCursor());
    TaskPage second = await(store.list(owner, first.nextCursor(), 2));
    assertEquals(ids.subList(2, 4), ids(second));
    assertNotNull(second.nextCursor());
    TaskPage last = await(store.list(owner, second.nextCursor(), 2));
    assertEquals(ids.subList(4, 5), ids(last));
    assertNull(last.nextCursor());
  }

  @Test
  void aFullLastPageHasNoCursor() {
    TaskStore store = store();
    String owner = owner();
    List<String> ids = createMany(store, owner, 4);
    TaskPage first = await(store.list(owner, null, 2));
    TaskPage last = await(store.list(owner, first.nextCursor(), 2));
    assertEquals(ids.subList(2, 4), ids(last));
    assertNull(last.nextCursor());
  }

  @Test
  void anOwnerWithoutTasksHasAnEmptyList() {
    TaskPage page = await(store().list(owner(), null, 10));
    assertTrue(page.tasks().isEmpty());
    assertNull(page.nextCursor());
  }

  @Test
  void listedTasksShowTheirCurrentState() {
    TaskStore store = store();
    String owner = owner();
    List<String> ids = createMany(store, owner, 2);
    await(store.complete(ids.get(0), TaskStatus.COMPLETED, RESULT, null, null));
    TaskPage page = await(store.list(owner, null, 10));
    assertEquals(ids, ids(page), "terminal tasks are listed too");
    assertEquals(await(store.get(ids.get(0))), page.tasks().get(0));
    assertEquals(TaskStatus.WORKING, page.tasks().get(1).status());
  }

  @Test
  void aCursorOfAnotherOwnerIsInvalid() {
    TaskStore store = store();
    String owner = owner();
    String other = owner();
    createMany(store, owner, 3);
    createMany(store, other, 3);
    String cursor = await(store.list(owner, null, 1)).nextCursor();
    assertEquals(Reason.INVALID_CURSOR, reason(awaitFailure(store.list(other, cursor, 1))));
  }

  @Test
  void aCursorTheStoreDidNotIssueIsInvalid() {
    TaskStore store = store();
    String owner = owner();
    createMany(store, owner, 2);
    String issued = await(store.list(owner, null, 1)).nextCursor();
    int middle = issued.length() / 2;
    String tampered = issued.substring(0, middle) + (issued.charAt(middle) == 'A' ? 'B' : 'A')
        + issued.substring(middle + 1);
    for (String garbage : List.of("not a cursor", "0", TaskIds.generate(), tampered)) {
      assertEquals(Reason.INVALID_CURSOR, reason(awaitFailure(store.list(owner, garbage, 1))), garbage);
    }
  }

  // --- expiry ---

  @Test
  void aTaskExpiresItsTtlAfterCreation() {
    TaskStore store = store();
    TaskRecord task = await(store.create(new NewTask(TaskIds.generate(), owner(), 60_000L, null, null, 0)));
    assertEquals(task.createdAt() + 60_000, task.expiresAt());
    assertEquals(task, await(store.get(task.taskId())));
  }

  @Test
  void anExpiredTaskReadsAsMissingEverywhere() {
    TaskStore store = store();
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
  void expiredTasksDoNotCountTowardTheOwnersLimit() {
    TaskStore store = store();
    String owner = owner();
    String expiring = createExpiring(store, owner, 1).taskId();
    eventually(() -> await(store.get(expiring)) == null, "the task expires");
    TaskRecord next = await(store.create(new NewTask(TaskIds.generate(), owner, null, null, null, 1)));
    assertEquals(TaskStatus.WORKING, next.status());
  }

  @Test
  void aCursorStaysValidWhenTheTasksBeforeItExpire() {
    TaskStore store = store();
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

  // --- the owner's limit ---

  @Test
  void anOwnerMayHaveOnlyItsLimitOfActiveTasks() {
    TaskStore store = store();
    String owner = owner();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ids.add(await(store.create(new NewTask(TaskIds.generate(), owner, null, null, null, 3))).taskId());
    }
    Throwable refused = awaitFailure(store.create(new NewTask(TaskIds.generate(), owner, null, null, null, 3)));
    assertEquals(Reason.LIMIT_EXCEEDED, reason(refused));
    await(store.create(new NewTask(TaskIds.generate(), owner(), null, null, null, 3)));

    await(store.complete(ids.get(0), TaskStatus.COMPLETED, RESULT, null, null));
    await(store.create(new NewTask(TaskIds.generate(), owner, null, null, null, 3)));
    await(store.transition(ids.get(1), ACTIVE, TaskStatus.CANCELLED, null));
    await(store.create(new NewTask(TaskIds.generate(), owner, null, null, null, 3)));
    assertEquals(Reason.LIMIT_EXCEEDED,
        reason(awaitFailure(store.create(new NewTask(TaskIds.generate(), owner, null, null, null, 3)))));
    assertEquals(5, await(store.list(owner, null, 10)).tasks().size());
  }

  @Test
  void aLimitOfZeroMeansNoLimit() {
    TaskStore store = store();
    String owner = owner();
    assertEquals(20, createMany(store, owner, 20).size());
  }

  @Test
  void concurrentCreatesStayWithinTheLimit() {
    TaskStore store = store();
    for (int round = 0; round < 20; round++) {
      String owner = owner();
      List<Supplier<Future<TaskRecord>>> creates = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        creates.add(() -> store.create(new NewTask(TaskIds.generate(), owner, null, null, null, 3)));
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

  // --- timestamps ---

  @Test
  void everyAppliedChangeMovesLastUpdatedAtAndNothingMovesCreatedAt() throws InterruptedException {
    TaskStore store = store();
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

  // --- listening ---

  @Test
  void listenersHearStatusChangesOnTheirOwnContext() {
    TaskStore store = store();
    try (Recorder recorder = new Recorder(store, vertx().getOrCreateContext())) {
      String id = create(store, owner()).taskId();
      await(store.transition(id, ACTIVE, TaskStatus.INPUT_REQUIRED, null));
      recorder.expect(id, Kind.STATUS, TaskStatus.INPUT_REQUIRED);
      await(store.transition(id, ACTIVE, TaskStatus.WORKING, null));
      recorder.expect(id, Kind.STATUS, TaskStatus.WORKING);
      await(store.complete(id, TaskStatus.COMPLETED, RESULT, null, null));
      recorder.expect(id, Kind.STATUS, TaskStatus.COMPLETED);
      recorder.assertOnItsContext();
    }
  }

  @Test
  void listenersHearInputRequestsAndResponses() {
    TaskStore store = store();
    try (Recorder recorder = new Recorder(store, vertx().getOrCreateContext())) {
      String id = create(store, owner()).taskId();
      await(store.requestInput(id, Map.of("name", request("Name?"), "age", request("Age?")), null));
      recorder.expect(id, Kind.INPUT_REQUESTED, TaskStatus.INPUT_REQUIRED);
      recorder.expect(id, Kind.STATUS, TaskStatus.INPUT_REQUIRED);
      await(store.respond(id, Map.of("name", answer("Ada"))));
      recorder.expect(id, Kind.INPUT_RESPONDED, TaskStatus.INPUT_REQUIRED);
      await(store.respond(id, Map.of("age", answer("36"))));
      recorder.expect(id, Kind.INPUT_RESPONDED, TaskStatus.WORKING);
      recorder.expect(id, Kind.STATUS, TaskStatus.WORKING);
      await(store.transition(id, ACTIVE, TaskStatus.CANCELLED, null));
      recorder.expect(id, Kind.STATUS, TaskStatus.CANCELLED);
      recorder.assertOnItsContext();
    }
  }

  @Test
  void anUnregisteredListenerHearsNothingMore() {
    TaskStore store = store();
    Context context = vertx().getOrCreateContext();
    try (Recorder gone = new Recorder(store, context); Recorder staying = new Recorder(store, context)) {
      String id = create(store, owner()).taskId();
      gone.close();
      await(store.transition(id, ACTIVE, TaskStatus.INPUT_REQUIRED, null));
      staying.expect(id, Kind.STATUS, TaskStatus.INPUT_REQUIRED);
      // A second change, heard by the listener that stayed, gives anything still in flight time to arrive.
      await(store.transition(id, ACTIVE, TaskStatus.WORKING, null));
      staying.expect(id, Kind.STATUS, TaskStatus.WORKING);
      assertTrue(gone.heard(id).isEmpty(), "heard after unregistering: " + gone.heard(id));
    }
  }

  // --- helpers for this suite and for implementations' own tests ---

  /** An owner no other test uses. */
  protected static String owner() {
    return "owner-" + TaskIds.generate();
  }

  protected static TaskRecord create(TaskStore store, String owner) {
    return await(store.create(new NewTask(TaskIds.generate(), owner, null, 1_000L,
        new JsonObject().put("method", "tools/call"), 0)));
  }

  /** Creates tasks one after the other, so their creation order is certain, and yields their ids in order. */
  protected static List<String> createMany(TaskStore store, String owner, int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(create(store, owner).taskId());
    }
    return ids;
  }

  private static TaskRecord createExpiring(TaskStore store, String owner, int maxActive) {
    return await(store.create(new NewTask(TaskIds.generate(), owner, SHORT_TTL_MS, null, null, maxActive)));
  }

  protected static JsonObject request(String message) {
    return new JsonObject().put("method", "elicitation/create")
        .put("params", new JsonObject().put("mode", "form").put("message", message));
  }

  protected static JsonObject answer(String value) {
    return new JsonObject().put("action", "accept").put("content", new JsonObject().put("value", value));
  }

  protected static List<String> ids(TaskPage page) {
    return page.tasks().stream().map(TaskRecord::taskId).toList();
  }

  protected static void assertMissing(TaskUpdate update) {
    assertEquals(TaskUpdate.missing(), update);
  }

  protected static Reason reason(Throwable failure) {
    return assertInstanceOf(TaskStoreException.class, failure).reason();
  }

  /** Runs a call on a context and yields its outcome. */
  protected static <T> Future<T> on(Context context, Supplier<Future<T>> call) {
    Promise<T> promise = Promise.promise();
    context.runOnContext(v -> call.get().onComplete(promise));
    return promise.future();
  }

  /**
   * Makes the calls on as many threads, released together from a spin so that they overlap as closely as the
   * machine allows, and yields their outcomes in the order of the calls.
   */
  protected static <T> List<Future<T>> together(List<Supplier<Future<T>>> calls) {
    CountDownLatch ready = new CountDownLatch(calls.size());
    AtomicBoolean go = new AtomicBoolean();
    List<Future<T>> outcomes = new ArrayList<>();
    for (Supplier<Future<T>> call : calls) {
      Promise<T> promise = Promise.promise();
      outcomes.add(promise.future());
      Thread caller = new Thread(() -> {
        ready.countDown();
        while (!go.get()) {
          Thread.onSpinWait();
        }
        try {
          call.get().onComplete(promise);
        } catch (RuntimeException e) {
          promise.fail(e);
        }
      }, "task-store-contract-race");
      caller.setDaemon(true);
      caller.start();
    }
    try {
      assertTrue(ready.await(PATIENCE_MS, TimeUnit.MILLISECONDS), "the callers started");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    go.set(true);
    return outcomes;
  }

  protected static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(PATIENCE_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("expected success, got " + e.getCause(), e.getCause());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  protected static Throwable awaitFailure(Future<?> future) {
    Throwable failure = outcome(future);
    if (failure == null) {
      throw new AssertionError("expected a failure");
    }
    return failure;
  }

  /** The failure a call reports, whether it throws or fails its future: stores may do either for bad arguments. */
  protected static Throwable failureOf(Supplier<Future<?>> call) {
    Future<?> future;
    try {
      future = call.get();
    } catch (RuntimeException e) {
      return e;
    }
    return awaitFailure(future);
  }

  /** Null when the future succeeds, else its failure. */
  private static Throwable outcome(Future<?> future) {
    try {
      future.toCompletionStage().toCompletableFuture().get(PATIENCE_MS, TimeUnit.MILLISECONDS);
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** Waits until a condition holds, checking now and then; fails after {@link #PATIENCE_MS}. */
  protected static void eventually(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PATIENCE_MS);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      try {
        TimeUnit.MILLISECONDS.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  /**
   * A listener registered on a given context that records what it hears, and whether it heard it on that
   * context. Changes to tasks of other tests and {@link Kind#RESYNC} are allowed and ignored.
   */
  protected final class Recorder implements AutoCloseable {

    private final BlockingQueue<TaskChange> incoming = new LinkedBlockingQueue<>();
    private final List<TaskChange> heard = new ArrayList<>();
    private final List<String> wrongContexts = new ArrayList<>();
    private final Context context;
    private final TaskStore.Registration registration;
    private boolean closed;

    public Recorder(TaskStore store, Context context) {
      this.context = context;
      this.registration = await(on(context, () -> store.listen(change -> {
        if (Vertx.currentContext() != context) {
          synchronized (wrongContexts) {
            wrongContexts.add(String.valueOf(Vertx.currentContext()));
          }
        }
        incoming.add(change);
      })));
    }

    /** Waits until the listener has heard the change; changes may come in any order and more than once. */
    public void expect(String taskId, Kind kind, TaskStatus status) {
      TaskChange expected = new TaskChange(kind, taskId, status);
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PATIENCE_MS);
      while (!heard.contains(expected)) {
        long left = deadline - System.nanoTime();
        TaskChange change;
        try {
          change = left > 0 ? incoming.poll(left, TimeUnit.NANOSECONDS) : null;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError(e);
        }
        if (change == null) {
          throw new AssertionError("never heard " + expected + "; heard " + heard(taskId));
        }
        heard.add(change);
      }
      // What was heard for this change is spent, so a later expectation needs a later change.
      heard.removeIf(change -> change.equals(expected));
    }

    /** Everything heard about a task so far. */
    public List<TaskChange> heard(String taskId) {
      incoming.drainTo(heard);
      return heard.stream().filter(change -> taskId.equals(change.taskId())).toList();
    }

    /** Unregisters the listener, once. */
    @Override
    public void close() {
      if (!closed) {
        closed = true;
        await(registration.unregister());
      }
    }

    public void assertOnItsContext() {
      synchronized (wrongContexts) {
        assertTrue(wrongContexts.isEmpty(), "heard on " + wrongContexts + " instead of " + context);
      }
    }
  }
}
