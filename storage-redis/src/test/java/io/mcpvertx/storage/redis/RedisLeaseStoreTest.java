package io.mcpvertx.storage.redis;

import io.mcpvertx.spi.leases.LeaseLostException;
import io.mcpvertx.spi.leases.LeaseStore;
import io.mcpvertx.storage.redis.impl.RedisKeys;
import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.mcpvertx.testing.stores.LeaseStoreContract;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The lease store contract, run against Redis, and what is particular to Redis: its keys and outages. */
class RedisLeaseStoreTest extends LeaseStoreContract {

  @RegisterExtension
  static final RedisServerExtension REDIS = new RedisServerExtension();

  private static final long OUTAGE_TIMEOUT_MS = 500;

  private static Vertx vertx;
  private static RedisLeaseStore store;
  private static RedisLeaseStore impatient;
  private static RedisKeys keys;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    TestRedis redis = REDIS.redis();
    RedisStoreOptions options = new RedisStoreOptions().setConnectionString(redis.url())
        .setKeyPrefix(redis.keyPrefix());
    store = RedisLeaseStore.create(vertx, options);
    await(store.isLive("warm-up"));
    impatient = RedisLeaseStore.create(vertx, new RedisStoreOptions(options).setCommandTimeoutMs(OUTAGE_TIMEOUT_MS));
    await(impatient.isLive("warm-up"));
    keys = new RedisKeys(redis.keyPrefix());
  }

  @AfterAll
  static void stop() {
    await(store.close());
    await(impatient.close());
    await(vertx.close());
  }

  @Override
  protected LeaseStore store() {
    return store;
  }

  @Test
  void aLeaseIsOneKeyWithARedisExpiryAndAClaimNamesItsOwner() {
    String instance = id("instance");
    await(store.register(instance, 60_000));
    long ttl = (Long) REDIS.redis().call("PTTL", keys.lease(instance));
    assertTrue(ttl > 55_000 && ttl <= 60_000, "ttl " + ttl);
    String session = id("session");
    await(store.claimSession(session, instance, 30_000));
    assertEquals(instance, String.valueOf(REDIS.redis().call("GET", keys.sessionClaim(session))));
    long claimTtl = (Long) REDIS.redis().call("PTTL", keys.sessionClaim(session));
    assertTrue(claimTtl > 25_000 && claimTtl <= 30_000, "claim ttl " + claimTtl);
  }

  @Test
  void idsOfAnyShapeStayInTheirOwnKeys() {
    String instance = "a}:b{" + id("instance");
    String session = "c}{" + id("session");
    await(store.register(instance, 60_000));
    assertEquals(instance, await(store.claimSession(session, instance, 60_000)));
    assertEquals(instance, await(store.sessionOwner(session)));
    await(store.executing(instance, "t-1"));
    await(store.release(instance));
    assertEquals(1, await(store.takeOrphans(100)).stream()
        .filter(o -> o.instanceId().equals(instance) && o.taskId().equals("t-1")).count());
  }

  @Test
  void aDeadInstanceWithNothingLeftIsForgottenByTheSweep() {
    String instance = id("instance");
    await(store.register(instance, 60_000));
    await(store.executing(instance, "t-1"));
    String indexed = RedisKeys.segment(instance);
    assertEquals(1L, REDIS.redis().call("SISMEMBER", keys.leaseInstances(), indexed));
    await(store.release(instance));
    assertEquals(1, await(store.takeOrphans(100)).stream().filter(o -> o.instanceId().equals(instance)).count());
    assertEquals(0L, REDIS.redis().call("SISMEMBER", keys.leaseInstances(), indexed));
    assertEquals(0L, REDIS.redis().call("EXISTS", keys.executions(instance)));
  }

  @Test
  void anIdWhoseExecutionsAwaitASweeperIsNotRegisteredAgain() {
    String instance = id("instance");
    await(store.register(instance, 60_000));
    await(store.executing(instance, "t-1"));
    await(store.release(instance));
    assertInstanceOf(IllegalStateException.class, failure(store.register(instance, 60_000)));
    assertEquals(List.of("t-1"), await(store.takeOrphans(100)).stream()
        .filter(o -> o.instanceId().equals(instance)).map(LeaseStore.Orphan::taskId).toList());
  }

  @Test
  void everyScriptRunsAfterTheScriptCacheIsFlushed() {
    TestRedis redis = REDIS.redis();
    String instance = id("instance");
    String session = id("session");
    redis.call("SCRIPT", "FLUSH");
    await(store.register(instance, 60_000));
    redis.call("SCRIPT", "FLUSH");
    assertEquals(instance, await(store.claimSession(session, instance, 60_000)));
    redis.call("SCRIPT", "FLUSH");
    assertEquals(instance, await(store.sessionOwner(session)));
    redis.call("SCRIPT", "FLUSH");
    await(store.releaseSession(session, instance));
    assertNull(await(store.sessionOwner(session)));
    redis.call("SCRIPT", "FLUSH");
    await(store.executing(instance, "t-1"));
    await(store.release(instance));
    redis.call("SCRIPT", "FLUSH");
    assertEquals(1, await(store.takeOrphans(100)).stream().filter(o -> o.instanceId().equals(instance)).count());
  }

  @Test
  void sweepersOnSeparateConnectionsNeverShareAnOrphan() {
    Set<String> mine = new HashSet<>();
    for (int i = 0; i < 4; i++) {
      String instance = id("instance");
      await(store.register(instance, 60_000));
      for (int t = 0; t < 25; t++) {
        await(store.executing(instance, "t-" + t));
        mine.add(instance + "/t-" + t);
      }
      await(store.release(instance));
    }
    // Two clients, as two instances of a deployment would have, sweeping at once until every orphan is out.
    TestRedis redis = REDIS.redis();
    RedisLeaseStore other = RedisLeaseStore.create(vertx, new RedisStoreOptions().setConnectionString(redis.url())
        .setKeyPrefix(redis.keyPrefix()));
    List<String> taken = new ArrayList<>();
    for (int round = 0; round < 50 && !taken.containsAll(mine); round++) {
      List<Future<List<LeaseStore.Orphan>>> sweeps = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        sweeps.add(store.takeOrphans(7));
        sweeps.add(other.takeOrphans(7));
      }
      await(Future.all(sweeps));
      sweeps.forEach(sweep -> sweep.result().stream().map(o -> o.instanceId() + "/" + o.taskId())
          .filter(mine::contains).forEach(taken::add));
    }
    await(other.close());
    assertEquals(mine.size(), taken.size(), "each orphan handed out exactly once");
    assertEquals(mine, new HashSet<>(taken));
  }

  @Test
  void oneSweepExaminesAtMostTheSampleOfInstances() {
    TestRedis redis = REDIS.redis();
    // A prefix of its own, so only this test's instances are indexed.
    RedisLeaseStore isolated = RedisLeaseStore.create(vertx, new RedisStoreOptions().setConnectionString(redis.url())
        .setKeyPrefix(redis.keyPrefix() + id("sample") + ":"));
    try {
      int dead = RedisLeaseStore.SWEEP_SAMPLE + 50;
      for (int i = 0; i < dead; i++) {
        String instance = "i-" + i;
        await(isolated.register(instance, 60_000));
        await(isolated.executing(instance, "t"));
        await(isolated.release(instance));
      }
      assertEquals(RedisLeaseStore.SWEEP_SAMPLE, await(isolated.takeOrphans(10_000)).size());
      assertEquals(50, await(isolated.takeOrphans(10_000)).size());
      assertEquals(List.of(), await(isolated.takeOrphans(10_000)));
    } finally {
      await(isolated.close());
    }
  }

  @Test
  void leasesClaimsAndExecutionsOutliveARestartOfRedis() {
    TestRedis redis = REDIS.redis();
    redis.assumePrivate();
    String instance = id("instance");
    String session = id("session");
    await(store.register(instance, 60_000));
    await(store.claimSession(session, instance, 60_000));
    await(store.executing(instance, "t-restart"));
    // The harness's Redis keeps an append-only file, written out on a graceful stop.
    redis.stop();
    redis.restart();
    reachable();
    assertTrue(await(store.isLive(instance)));
    assertEquals(instance, await(store.sessionOwner(session)));
    String other = id("instance");
    await(store.register(other, 60_000));
    assertEquals(instance, await(store.claimSession(session, other, 60_000)), "the claim survived");
    await(store.renew(instance, 60_000));
    await(store.release(instance));
    assertEquals(1, await(store.takeOrphans(100)).stream()
        .filter(o -> o.instanceId().equals(instance) && o.taskId().equals("t-restart")).count());
  }

  @Test
  void aLeaseThatLapsesWhileRedisIsDownIsLostWhenItComesBack() throws InterruptedException {
    TestRedis redis = REDIS.redis();
    redis.assumePrivate();
    String instance = id("instance");
    String session = id("session");
    await(store.register(instance, 1_000));
    await(store.claimSession(session, instance, 60_000));
    redis.stop();
    // Redis stores expiry as a point in time: the outage does not pause it.
    Thread.sleep(1_500);
    redis.restart();
    reachable();
    assertFalse(await(store.isLive(instance)));
    assertInstanceOf(LeaseLostException.class, failure(store.renew(instance, 60_000)));
    assertNull(await(store.sessionOwner(session)));
    String successor = id("instance");
    await(store.register(successor, 60_000));
    assertEquals(successor, await(store.claimSession(session, successor, 60_000)));
  }

  @Test
  void everyCallFailsFastAndClearlyWhileRedisIsDown() {
    TestRedis redis = REDIS.redis();
    redis.assumePrivate();
    String instance = id("instance");
    await(impatient.register(instance, 60_000));
    redis.stop();
    try {
      Map<String, Supplier<Future<?>>> calls = new LinkedHashMap<>();
      calls.put("register", () -> impatient.register(id("instance"), 60_000));
      calls.put("renew", () -> impatient.renew(instance, 60_000));
      calls.put("release", () -> impatient.release(instance));
      calls.put("isLive", () -> impatient.isLive(instance));
      calls.put("claimSession", () -> impatient.claimSession(id("session"), instance, 60_000));
      calls.put("sessionOwner", () -> impatient.sessionOwner(id("session")));
      calls.put("releaseSession", () -> impatient.releaseSession(id("session"), instance));
      calls.put("executing", () -> impatient.executing(instance, "t"));
      calls.put("executed", () -> impatient.executed(instance, "t"));
      calls.put("takeOrphans", () -> impatient.takeOrphans(10));
      calls.put("ping", impatient::ping);
      calls.forEach((name, call) -> assertUnavailableWithinTimeout(name, call));
    } finally {
      redis.restart();
      reachable();
    }
  }

  @Test
  void callsFailWithinTheTimeoutWhenRedisDoesNotAnswer() throws InterruptedException {
    TestRedis redis = REDIS.redis();
    redis.assumePrivate();
    String instance = id("instance");
    await(impatient.register(instance, 60_000));
    // The connection stays open: only the command timeout ends the wait.
    redis.call("CLIENT", "PAUSE", "1500", "ALL");
    long start = System.nanoTime();
    Throwable failure = assertUnavailableWithinTimeout("renew", () -> impatient.renew(instance, 60_000));
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    assertTrue(failure.getMessage().contains("no answer from Redis within " + OUTAGE_TIMEOUT_MS + " ms"),
        failure.getMessage());
    assertTrue(elapsedMs >= OUTAGE_TIMEOUT_MS - 50, "gave up after " + elapsedMs + " ms, before the timeout");
    Thread.sleep(Math.max(0, 1_600 - elapsedMs));
    assertTrue(await(impatient.isLive(instance)), "the lease outlives a pause shorter than it");
  }

  /** Bounded polling while the client reconnects after a restart. */
  private static void reachable() {
    for (int attempt = 0; Futures.outcome(store.ping()) != null || Futures.outcome(impatient.ping()) != null;
        attempt++) {
      if (attempt == 200) {
        throw new AssertionError("Redis is still unreachable after its restart");
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  private static Throwable assertUnavailableWithinTimeout(String name, Supplier<Future<?>> call) {
    long start = System.nanoTime();
    Throwable failure = failure(call.get());
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    assertInstanceOf(StoreUnavailableException.class, failure, name);
    assertTrue(failure.getMessage().startsWith("lease store unavailable"), name + ": " + failure.getMessage());
    // Generous: a busy machine delays timers, but a call that waited for Redis would take far longer.
    assertTrue(elapsedMs < OUTAGE_TIMEOUT_MS + 4_500, name + " failed after " + elapsedMs + " ms");
    return failure;
  }
}
