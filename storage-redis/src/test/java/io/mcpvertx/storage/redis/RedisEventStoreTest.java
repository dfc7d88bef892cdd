package io.mcpvertx.storage.redis;

import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.UnknownEventException;
import io.mcpvertx.storage.redis.impl.RedisKeys;
import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.mcpvertx.testing.stores.EventStoreContract;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RedisEventStoreTest extends EventStoreContract {

  @RegisterExtension
  static final RedisServerExtension REDIS = new RedisServerExtension();

  private static Vertx vertx;
  private static RedisEventStore store;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    store = RedisEventStore.create(vertx, options());
  }

  @AfterAll
  static void stop() {
    await(store.close());
    await(vertx.close());
  }

  private static RedisStoreOptions options() {
    TestRedis redis = REDIS.redis();
    return new RedisStoreOptions().setConnectionString(redis.url()).setKeyPrefix(redis.keyPrefix())
        .setMaxEventsPerStream(10).setMaxStreamsPerSession(4).setEventTtlMs(60_000).setCommandTimeoutMs(1_000);
  }

  @Override
  protected EventStore store() {
    return store;
  }

  @Test
  void anotherInstanceResumesTheStream() {
    RedisEventStore other = RedisEventStore.create(vertx, options());
    try {
      String s = session();
      String first = await(store.append(s, "a", Buffer.buffer("1")));
      await(store.append(s, "a", Buffer.buffer("2")));
      await(store.complete(s, "a"));
      EventStore.Replay replay = await(other.replayAfter(s, first));
      assertEquals(List.of("2"), texts(replay));
      assertTrue(replay.complete());
    } finally {
      await(other.close());
    }
  }

  @Test
  void boundsTheStreamAndRefusesAnIdWhoseSuccessorsWereTrimmed() {
    String s = session();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      ids.add(await(store.append(s, "a", Buffer.buffer(Integer.toString(i)))));
    }
    long length = (Long) REDIS.redis().call("XLEN", keys().eventStream(s, "a"));
    assertTrue(length >= 10 && length < 600, "approximately bounded: " + length);
    assertInstanceOf(UnknownEventException.class, awaitFailure(store.replayAfter(s, ids.get(0))));
    assertEquals(List.of("597", "598", "599"), texts(await(store.replayAfter(s, ids.get(596)))));
  }

  @Test
  void resumesFromTheNewestTrimmedEventButNotFromAnOlderOne() {
    String s = session();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      ids.add(await(store.append(s, "a", Buffer.buffer(Integer.toString(i)))));
    }
    // Exact trimming leaves 3, 4, 5: a client that saw 2 missed nothing; one that saw 1 missed 2.
    REDIS.redis().call("XTRIM", keys().eventStream(s, "a"), "MAXLEN", "3");
    assertEquals(List.of("3", "4", "5"), texts(await(store.replayAfter(s, ids.get(2)))));
    assertInstanceOf(UnknownEventException.class, awaitFailure(store.replayAfter(s, ids.get(1))));
  }

  @Test
  void anIdBetweenIssuedOnesIsUnknown() {
    String s = session();
    String id = await(store.append(s, "a", Buffer.buffer("1")));
    await(store.append(s, "a", Buffer.buffer("2")));
    String entry = id.substring(id.lastIndexOf('_') + 1);
    long ms = Long.parseLong(entry.substring(0, entry.indexOf('-')));
    assertInstanceOf(UnknownEventException.class, awaitFailure(store.replayAfter(s, "a_" + ms + "-999999")));
    assertInstanceOf(UnknownEventException.class, awaitFailure(store.replayAfter(s, "a_0" + entry)));
    assertInstanceOf(UnknownEventException.class, awaitFailure(store.replayAfter(s, "a_99999999999999999999-0")));
  }

  @Test
  void dropsTheOldestStreamBeyondTheSessionsBound() {
    String s = session();
    String first = await(store.append(s, "s0", Buffer.buffer("x")));
    await(store.append(s, "s0", Buffer.buffer("y")));
    for (int i = 1; i <= 4; i++) {
      await(store.append(s, "s" + i, Buffer.buffer("x")));
    }
    assertInstanceOf(UnknownEventException.class, awaitFailure(store.replayAfter(s, first)));
    assertEquals(4L, REDIS.redis().call("ZCARD", keys().eventStreams(s)));
    assertEquals(0L, REDIS.redis().call("EXISTS", keys().eventStream(s, "s0")));
  }

  @Test
  void everyKeyExpiresAndRemovalLeavesNoneBehind() {
    String s = session();
    await(store.append(s, "a", Buffer.buffer("1")));
    await(store.append(s, "b", Buffer.buffer("1")));
    await(store.complete(s, "a"));
    List<String> sessionKeys = REDIS.redis().keys().stream().filter(k -> k.contains("{" + s + "}")).toList();
    assertEquals(4, sessionKeys.size(), sessionKeys.toString());
    for (String key : sessionKeys) {
      long ttl = (Long) REDIS.redis().call("PTTL", key);
      assertTrue(ttl > 0 && ttl <= 60_000, key + " ttl " + ttl);
    }
    await(store.removeSession(s));
    assertTrue(REDIS.redis().keys().stream().noneMatch(k -> k.contains("{" + s + "}")));
  }

  @Test
  void completingAStreamWithoutEventsStoresNothing() {
    String s = session();
    await(store.complete(s, "a"));
    assertTrue(REDIS.redis().keys().stream().noneMatch(k -> k.contains("{" + s + "}")));
  }

  @Test
  void oddSessionAndStreamIdsStayApart() {
    String s = session() + "}:s:x";
    String id = await(store.append(s, "a:b{c}", Buffer.buffer("1")));
    await(store.append(s, "a:b{c}", Buffer.buffer("2")));
    assertEquals("a:b{c}", store.streamOf(id));
    assertEquals(List.of("2"), texts(await(store.replayAfter(s, id))));
  }

  @Test
  void streamOfAcceptsOnlyIdsThisStoreIssues() {
    assertEquals("p1", store.streamOf("p1_1700000000000-0"));
    assertEquals("a_b", store.streamOf("a_b_1-2"));
    assertNull(store.streamOf("p1_17"));
    assertNull(store.streamOf("_1-0"));
    assertNull(store.streamOf("p1_01-0"));
    assertNull(store.streamOf(null));
  }

  @Test
  void runsAfterTheScriptCacheIsFlushed() {
    REDIS.redis().assumePrivate();
    String s = session();
    String id = await(store.append(s, "a", Buffer.buffer("1")));
    REDIS.redis().call("SCRIPT", "FLUSH");
    await(store.append(s, "a", Buffer.buffer("2")));
    REDIS.redis().call("SCRIPT", "FLUSH");
    assertEquals(List.of("2"), texts(await(store.replayAfter(s, id))));
  }

  @Test
  void failsFastWhileRedisIsDownAndRecoversWithoutARestart() {
    TestRedis redis = REDIS.redis();
    redis.assumePrivate();
    String s = session();
    String id = await(store.append(s, "a", Buffer.buffer("1")));
    redis.stop();
    try {
      long start = System.nanoTime();
      Throwable failure = awaitFailure(store.append(s, "a", Buffer.buffer("2")));
      assertInstanceOf(StoreUnavailableException.class, failure);
      assertTrue(failure.getMessage().startsWith("event store unavailable"), failure.getMessage());
      assertInstanceOf(StoreUnavailableException.class, awaitFailure(store.replayAfter(s, id)));
      assertTrue((System.nanoTime() - start) / 1_000_000 < 2_500, "failed within the bounds");
    } finally {
      redis.restart();
    }
    String next = await(store.append(s, "a", Buffer.buffer("3")));
    EventStore.Replay replay = await(store.replayAfter(s, id));
    assertEquals(List.of("3"), texts(replay));
    assertEquals(next, replay.events().get(0).id());
    assertFalse(replay.complete());
  }

  @Test
  void failsWithinTheTimeoutWhenRedisDoesNotAnswer() throws InterruptedException {
    TestRedis redis = REDIS.redis();
    redis.assumePrivate();
    String s = session();
    await(store.append(s, "a", Buffer.buffer("1")));
    redis.call("CLIENT", "PAUSE", "1500", "ALL");
    long start = System.nanoTime();
    Throwable failure = awaitFailure(store.append(s, "a", Buffer.buffer("2")));
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    assertInstanceOf(StoreUnavailableException.class, failure);
    assertTrue(failure.getMessage().contains("no answer from Redis within 1000 ms"), failure.getMessage());
    assertTrue(elapsedMs >= 900 && elapsedMs < 2_000, "failed after " + elapsedMs + " ms");
    Thread.sleep(Math.max(0, 1_600 - elapsedMs));
    await(store.append(s, "a", Buffer.buffer("3")));
  }

  @Test
  void keepsArbitraryBytesIntact() {
    String s = session();
    byte[] bytes = new byte[256];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) i;
    }
    String id = await(store.append(s, "a", Buffer.buffer("0")));
    await(store.append(s, "a", Buffer.buffer(bytes)));
    assertEquals(Buffer.buffer(bytes), await(store.replayAfter(s, id)).events().get(0).data());
  }

  private static RedisKeys keys() {
    return new RedisKeys(REDIS.redis().keyPrefix());
  }
}
