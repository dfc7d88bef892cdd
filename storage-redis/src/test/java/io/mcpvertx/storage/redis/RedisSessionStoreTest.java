package io.mcpvertx.storage.redis;

import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.spi.sessions.SessionStore;
import io.mcpvertx.storage.redis.impl.RedisKeys;
import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.mcpvertx.testing.stores.SessionStoreContract;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The session store contract, run against Redis, and what is particular to Redis: expiry and outages. */
class RedisSessionStoreTest extends SessionStoreContract {

  @RegisterExtension
  static final RedisServerExtension REDIS = new RedisServerExtension();

  private static final long OUTAGE_TIMEOUT_MS = 500;

  private static Vertx vertx;
  private static RedisSessionStore store;
  /** With a short timeout, for the outage tests; made once the JVM has connected (a cold connect is slow). */
  private static RedisSessionStore impatient;
  private static RedisKeys keys;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    TestRedis redis = REDIS.redis();
    RedisStoreOptions options = new RedisStoreOptions().setConnectionString(redis.url())
        .setKeyPrefix(redis.keyPrefix());
    store = RedisSessionStore.create(vertx, options);
    await(store.get("warm-up"));
    impatient = RedisSessionStore.create(vertx, new RedisStoreOptions(options).setCommandTimeoutMs(OUTAGE_TIMEOUT_MS));
    keys = new RedisKeys(redis.keyPrefix());
  }

  @AfterAll
  static void stop() {
    await(store.close());
    await(impatient.close());
    await(vertx.close());
  }

  @Override
  protected SessionStore store() {
    return store;
  }

  private static SessionRecord record(String id) {
    return new SessionRecord(id, "OPERATING", "2025-11-25", new JsonObject().put("name", "c"), "info",
        Set.of("file:///x"), null, 1L);
  }

  @Test
  void aSessionIsOneKeyThatExpiresWithIt() {
    String id = sessionId();
    await(store.put(record(id), 60_000));
    String key = keys.session(id);
    assertEquals(record(id).toJson(), new JsonObject(String.valueOf(REDIS.redis().call("GET", key))));
    long ttl = (Long) REDIS.redis().call("PTTL", key);
    assertTrue(ttl > 55_000 && ttl <= 60_000, "ttl " + ttl);
    assertTrue(await(store.touch(id, 120_000)));
    ttl = (Long) REDIS.redis().call("PTTL", key);
    assertTrue(ttl > 115_000 && ttl <= 120_000, "ttl after touch " + ttl);
    await(store.put(record(id), 30_000));
    ttl = (Long) REDIS.redis().call("PTTL", key);
    assertTrue(ttl > 25_000 && ttl <= 30_000, "a put sets the lifetime anew: " + ttl);
  }

  @Test
  void sessionIdsOfAnyShapeStayInTheirOwnKey() {
    String odd = "a}:b{" + sessionId();
    await(store.put(record(odd), 60_000));
    assertEquals(odd, await(store.get(odd)).sessionId());
    assertEquals(1L, REDIS.redis().call("EXISTS", keys.session(odd)));
    assertTrue(await(store.remove(odd)));
  }

  @Test
  void everyCallFailsFastWhileRedisIsDownAndWorksAgainOnceItIsBack() {
    TestRedis redis = REDIS.redis();
    redis.assumePrivate();
    String id = sessionId();
    await(impatient.put(record(id), 60_000));
    redis.stop();
    try {
      Map<String, Supplier<Future<?>>> calls = new LinkedHashMap<>();
      calls.put("put", () -> impatient.put(record(sessionId()), 60_000));
      calls.put("get", () -> impatient.get(id));
      calls.put("touch", () -> impatient.touch(id, 60_000));
      calls.put("remove", () -> impatient.remove(id));
      calls.forEach((name, call) -> assertUnavailableWithinTimeout(name, call));
    } finally {
      redis.restart();
    }
    assertEquals(record(id), await(impatient.get(id)), "a stored session survives the outage");
    assertTrue(await(impatient.touch(id, 60_000)));
  }

  @Test
  void callsFailWithinTheTimeoutWhenRedisDoesNotAnswer() throws InterruptedException {
    TestRedis redis = REDIS.redis();
    redis.assumePrivate();
    String id = sessionId();
    await(impatient.put(record(id), 60_000));
    redis.call("CLIENT", "PAUSE", "1000", "ALL");
    long start = System.nanoTime();
    assertUnavailableWithinTimeout("get", () -> impatient.get(id));
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    Thread.sleep(Math.max(0, 1_100 - elapsedMs));
    assertNotNull(await(impatient.get(id)));
  }

  private static void assertUnavailableWithinTimeout(String name, Supplier<Future<?>> call) {
    long start = System.nanoTime();
    Throwable failure = Futures.outcome(call.get());
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    assertNotNull(failure, name + " succeeded while Redis was away");
    StoreUnavailableException refused = assertInstanceOf(StoreUnavailableException.class, failure, name);
    assertTrue(refused.getMessage().startsWith("session store unavailable"), refused.getMessage());
    assertTrue(elapsedMs < OUTAGE_TIMEOUT_MS + 500, name + " failed after " + elapsedMs + " ms");
  }
}
