package io.mcpvertx.testing.stores;

import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.UnknownEventException;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every {@link EventStore} must do, whatever keeps the events. A store implementation's test extends this
 * class and says how to make a fresh store whose per-stream retention is at least 10 events.
 */
public abstract class EventStoreContract {

  /** A store that keeps at least 10 events per stream and is empty for the session ids this suite uses. */
  protected abstract EventStore store();

  /** A session id no other test uses. */
  protected String session() {
    return "s-" + System.nanoTime();
  }

  protected static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new AssertionError("expected success, got " + e.getCause(), e.getCause());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  protected static Throwable awaitFailure(Future<?> future) {
    try {
      future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("expected a failure");
  }

  private static Buffer data(String text) {
    return Buffer.buffer(text);
  }

  @Test
  void replaysTheEventsAfterTheGivenIdInOrder() {
    EventStore store = store();
    String s = session();
    String first = await(store.append(s, "a", data("1")));
    await(store.append(s, "a", data("2")));
    await(store.append(s, "a", data("3")));
    EventStore.Replay replay = await(store.replayAfter(s, first));
    assertEquals("a", replay.streamId());
    assertEquals(List.of("2", "3"), texts(replay));
    assertFalse(replay.complete());
  }

  @Test
  void replayAfterTheLastEventIsEmpty() {
    EventStore store = store();
    String s = session();
    await(store.append(s, "a", data("1")));
    String last = await(store.append(s, "a", data("2")));
    assertTrue(await(store.replayAfter(s, last)).events().isEmpty());
  }

  @Test
  void eventIdsAreUniqueWithinASessionAndNameTheirStream() {
    EventStore store = store();
    String s = session();
    String a = await(store.append(s, "a", data("x")));
    String b = await(store.append(s, "b", data("x")));
    assertNotEquals(a, b);
    assertEquals("a", store.streamOf(a));
    assertEquals("b", store.streamOf(b));
  }

  @Test
  void neverReplaysAnotherStreamsEvents() {
    EventStore store = store();
    String s = session();
    String a1 = await(store.append(s, "a", data("a1")));
    await(store.append(s, "b", data("b1")));
    await(store.append(s, "a", data("a2")));
    await(store.append(s, "b", data("b2")));
    assertEquals(List.of("a2"), texts(await(store.replayAfter(s, a1))));
  }

  @Test
  void completeIsReportedOnReplay() {
    EventStore store = store();
    String s = session();
    String id = await(store.append(s, "a", data("1")));
    await(store.append(s, "a", data("2")));
    await(store.complete(s, "a"));
    EventStore.Replay replay = await(store.replayAfter(s, id));
    assertTrue(replay.complete());
    assertEquals(List.of("2"), texts(replay));
  }

  @Test
  void anIdOfAnotherSessionIsUnknown() {
    EventStore store = store();
    String mine = session();
    String theirs = session() + "-other";
    String id = await(store.append(theirs, "a", data("secret")));
    assertInstanceOf(UnknownEventException.class, awaitFailure(store.replayAfter(mine, id)));
  }

  @Test
  void malformedAndNeverIssuedIdsAreUnknown() {
    EventStore store = store();
    String s = session();
    await(store.append(s, "a", data("1")));
    assertInstanceOf(UnknownEventException.class, awaitFailure(store.replayAfter(s, "not-an-id")));
    assertInstanceOf(UnknownEventException.class, awaitFailure(store.replayAfter(s, "zz_999999")));
  }

  @Test
  void removingASessionForgetsItsEvents() {
    EventStore store = store();
    String s = session();
    String id = await(store.append(s, "a", data("1")));
    await(store.append(s, "a", data("2")));
    await(store.removeSession(s));
    assertInstanceOf(UnknownEventException.class, awaitFailure(store.replayAfter(s, id)));
  }

  @Test
  void keepsBinaryDataIntact() {
    EventStore store = store();
    String s = session();
    String id = await(store.append(s, "a", data("0")));
    Buffer json = Buffer.buffer("{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"t\":\"\u00e9\u4e2d\ud83d\ude00\"}}");
    await(store.append(s, "a", json));
    assertEquals(json, await(store.replayAfter(s, id)).events().get(0).data());
  }

  @Test
  void anEmptyEventReplaysAsEmpty() {
    EventStore store = store();
    String s = session();
    String priming = await(store.append(s, "a", Buffer.buffer()));
    String next = await(store.append(s, "a", data("1")));
    EventStore.Replay replay = await(store.replayAfter(s, priming));
    assertEquals(1, replay.events().size());
    assertEquals(next, replay.events().get(0).id());
  }

  @Test
  void appendAndCompleteStoresTheEventsInOrderAndCompletesTheStream() {
    EventStore store = store();
    String s = session();
    String first = await(store.append(s, "a", data("1")));
    List<String> ids = await(store.appendAndComplete(s, "a", List.of(data(""), data("3"))));
    assertEquals(2, ids.size());
    assertEquals(List.of("a", "a"), List.of(store.streamOf(ids.get(0)), store.streamOf(ids.get(1))));
    assertNotEquals(first, ids.get(0));
    assertNotEquals(ids.get(0), ids.get(1));
    EventStore.Replay afterFirst = await(store.replayAfter(s, first));
    assertEquals(List.of("", "3"), texts(afterFirst));
    assertEquals(ids, afterFirst.events().stream().map(EventStore.StoredEvent::id).toList());
    assertTrue(afterFirst.complete());
    EventStore.Replay afterPriming = await(store.replayAfter(s, ids.get(0)));
    assertEquals(List.of("3"), texts(afterPriming));
    assertTrue(afterPriming.complete());
    assertTrue(await(store.replayAfter(s, ids.get(1))).events().isEmpty());
  }

  @Test
  void appendAndCompleteStartsAStream() {
    EventStore store = store();
    String s = session();
    List<String> ids = await(store.appendAndComplete(s, "b", List.of(data("x"))));
    assertEquals(1, ids.size());
    EventStore.Replay replay = await(store.replayAfter(s, ids.get(0)));
    assertEquals("b", replay.streamId());
    assertTrue(replay.events().isEmpty());
    assertTrue(replay.complete());
  }

  protected static List<String> texts(EventStore.Replay replay) {
    List<String> texts = new ArrayList<>();
    replay.events().forEach(e -> texts.add(e.data().toString()));
    return texts;
  }
}
