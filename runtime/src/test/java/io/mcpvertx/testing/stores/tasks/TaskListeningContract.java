package io.mcpvertx.testing.stores.tasks;

import io.mcpvertx.spi.tasks.TaskChange.Kind;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.vertx.core.Context;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.ACTIVE;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.RESULT;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.answer;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.await;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.create;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.owner;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.request;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Part of {@link TaskStoreContract}. Listeners: what they hear, on which context, and that unregistering ends it. */
interface TaskListeningContract extends TaskStoreUnderTest {

  @Test
  default void listenersHearStatusChangesOnTheirOwnContext() {
    TaskStore store = storeUnderTest();
    try (TaskChangeRecorder recorder = new TaskChangeRecorder(store, vertxUnderTest().getOrCreateContext())) {
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
  default void listenersHearInputRequestsAndResponses() {
    TaskStore store = storeUnderTest();
    try (TaskChangeRecorder recorder = new TaskChangeRecorder(store, vertxUnderTest().getOrCreateContext())) {
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
  default void anUnregisteredListenerHearsNothingMore() {
    TaskStore store = storeUnderTest();
    Context context = vertxUnderTest().getOrCreateContext();
    try (TaskChangeRecorder gone = new TaskChangeRecorder(store, context);
        TaskChangeRecorder staying = new TaskChangeRecorder(store, context)) {
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
}
