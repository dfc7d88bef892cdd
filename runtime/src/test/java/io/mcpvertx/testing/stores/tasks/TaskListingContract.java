package io.mcpvertx.testing.stores.tasks;

import io.mcpvertx.spi.tasks.TaskIds;
import io.mcpvertx.spi.tasks.TaskPage;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.TaskStoreException.Reason;
import java.util.List;
import org.junit.jupiter.api.Test;

import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.RESULT;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.await;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.awaitFailure;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.create;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.createMany;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.ids;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.owner;
import static io.mcpvertx.testing.stores.tasks.TaskStoreTesting.reason;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Part of {@link TaskStoreContract}. Listing an owner's tasks: oldest first, in pages, with cursors only the store
 * issues.
 */
interface TaskListingContract extends TaskStoreUnderTest {

  @Test
  default void listsAnOwnersTasksOldestFirstAndNoOneElses() {
    TaskStore store = storeUnderTest();
    String owner = owner();
    List<String> ids = createMany(store, owner, 3);
    create(store, owner());
    TaskPage page = await(store.list(owner, null, 10));
    assertEquals(ids, ids(page));
    assertNull(page.nextCursor());
  }

  @Test
  default void pagesThroughAnOwnersTasksWithCursors() {
    TaskStore store = storeUnderTest();
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
  default void aFullLastPageHasNoCursor() {
    TaskStore store = storeUnderTest();
    String owner = owner();
    List<String> ids = createMany(store, owner, 4);
    TaskPage first = await(store.list(owner, null, 2));
    TaskPage last = await(store.list(owner, first.nextCursor(), 2));
    assertEquals(ids.subList(2, 4), ids(last));
    assertNull(last.nextCursor());
  }

  @Test
  default void anOwnerWithoutTasksHasAnEmptyList() {
    TaskPage page = await(storeUnderTest().list(owner(), null, 10));
    assertTrue(page.tasks().isEmpty());
    assertNull(page.nextCursor());
  }

  @Test
  default void listedTasksShowTheirCurrentState() {
    TaskStore store = storeUnderTest();
    String owner = owner();
    List<String> ids = createMany(store, owner, 2);
    await(store.complete(ids.get(0), TaskStatus.COMPLETED, RESULT, null, null));
    TaskPage page = await(store.list(owner, null, 10));
    assertEquals(ids, ids(page), "terminal tasks are listed too");
    assertEquals(await(store.get(ids.get(0))), page.tasks().get(0));
    assertEquals(TaskStatus.WORKING, page.tasks().get(1).status());
  }

  @Test
  default void aCursorOfAnotherOwnerIsInvalid() {
    TaskStore store = storeUnderTest();
    String owner = owner();
    String other = owner();
    createMany(store, owner, 3);
    createMany(store, other, 3);
    String cursor = await(store.list(owner, null, 1)).nextCursor();
    assertEquals(Reason.INVALID_CURSOR, reason(awaitFailure(store.list(other, cursor, 1))));
  }

  @Test
  default void aCursorTheStoreDidNotIssueIsInvalid() {
    TaskStore store = storeUnderTest();
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
}
