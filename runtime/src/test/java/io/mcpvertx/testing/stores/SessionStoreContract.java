package io.mcpvertx.testing.stores;

import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.spi.sessions.SessionStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every {@link SessionStore} must do, whatever keeps the sessions. A store implementation's test extends this
 * class and says how to make a store; the store may be shared by tests, which use session ids of their own.
 * Expiry is checked with real, short lifetimes.
 */
public abstract class SessionStoreContract {

  protected abstract SessionStore store();

  protected static String sessionId() {
    return "session-" + System.nanoTime() + "-" + Math.random();
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

  private static SessionRecord record(String id) {
    return new SessionRecord(id, "OPERATING", "2025-11-25",
        new JsonObject().put("name", "client").put("version", "1")
            .put("capabilities", new JsonObject().put("elicitation", new JsonObject())),
        "warning", Set.of("file:///a", "file:///b"),
        new JsonObject().put("issuer", "https://issuer.example").put("subject", "alice"), 1_700_000_000_000L);
  }

  /** Polls {@code get} until it yields null, for at most a few seconds. */
  private void awaitGone(String id) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (await(store().get(id)) != null) {
      assertTrue(System.nanoTime() < deadline, "the session did not expire");
      Thread.sleep(50);
    }
  }

  @Test
  void aStoredSessionReadsBackWhole() {
    String id = sessionId();
    SessionRecord stored = record(id);
    await(store().put(stored, 60_000));
    SessionRecord read = await(store().get(id));
    assertEquals(stored, read);
    assertEquals(stored.toJson(), read.toJson());
  }

  @Test
  void anUnknownSessionReadsAsNull() {
    assertNull(await(store().get(sessionId())));
    assertFalse(await(store().touch(sessionId(), 1_000)));
    assertFalse(await(store().remove(sessionId())));
  }

  @Test
  void putReplacesTheWholeRecord() {
    String id = sessionId();
    await(store().put(record(id), 60_000));
    SessionRecord changed = new SessionRecord(id, "OPERATING", "2025-11-25", new JsonObject(), null, Set.of(), null,
        1L);
    await(store().put(changed, 60_000));
    assertEquals(changed, await(store().get(id)));
  }

  @Test
  void aRemovedSessionIsGone() {
    String id = sessionId();
    await(store().put(record(id), 60_000));
    assertTrue(await(store().remove(id)));
    assertNull(await(store().get(id)));
    assertFalse(await(store().remove(id)));
  }

  @Test
  void anIdleSessionExpires() throws InterruptedException {
    String id = sessionId();
    await(store().put(record(id), 300));
    assertNotNull(await(store().get(id)));
    awaitGone(id);
    assertFalse(await(store().touch(id, 60_000)), "an expired session cannot be revived");
  }

  @Test
  void touchingExtendsTheLifetime() throws InterruptedException {
    String id = sessionId();
    await(store().put(record(id), 400));
    for (int i = 0; i < 6; i++) {
      Thread.sleep(150);
      assertTrue(await(store().touch(id, 400)), "touch " + i);
    }
    // 900 ms after the put, well past its first lifetime, it lives on.
    assertNotNull(await(store().get(id)));
    awaitGone(id);
  }

  @Test
  void sessionsAreIndependent() {
    String a = sessionId();
    String b = sessionId();
    await(store().put(record(a), 60_000));
    await(store().put(record(b), 60_000));
    await(store().remove(a));
    assertNull(await(store().get(a)));
    assertEquals(b, await(store().get(b)).sessionId());
  }
}
