package io.mcpvertx.testing.stores;

import io.mcpvertx.spi.leases.LeaseStore.Orphan;
import io.mcpvertx.spi.leases.LeaseLostException;
import io.mcpvertx.spi.leases.LeaseStore;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every {@link LeaseStore} must do. A store implementation's test extends this class and says how to make a
 * store; the store may be shared by tests, which use ids of their own. Expiry is checked with real, short leases.
 */
public abstract class LeaseStoreContract {

  private static final long LONG = 60_000;
  private static final long SHORT = 300;

  protected abstract LeaseStore store();

  protected static String id(String what) {
    return what + "-" + System.nanoTime() + "-" + (long) (Math.random() * 1e9);
  }

  protected static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("expected success, got " + e.getCause(), e.getCause());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  protected static Throwable failure(Future<?> future) {
    try {
      future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("expected a failure");
  }

  private String live(long ttl) {
    String instance = id("instance");
    await(store().register(instance, ttl));
    return instance;
  }

  private void awaitLapsed(String instance) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (await(store().isLive(instance))) {
      assertTrue(System.nanoTime() < deadline, "the lease did not lapse");
      Thread.sleep(50);
    }
  }

  /** Every orphan the store hands out now, across calls. */
  private List<Orphan> drainOrphans() {
    List<Orphan> all = new ArrayList<>();
    for (List<Orphan> batch = await(store().takeOrphans(100)); !batch.isEmpty();
        batch = await(store().takeOrphans(100))) {
      all.addAll(batch);
    }
    return all;
  }

  private List<String> orphansOf(List<Orphan> orphans, String instance) {
    return orphans.stream().filter(o -> o.instanceId().equals(instance)).map(Orphan::taskId)
        .collect(Collectors.toList());
  }

  // ---- instance leases ----

  @Test
  void aRegisteredInstanceIsLiveAndRenews() {
    String instance = live(LONG);
    assertTrue(await(store().isLive(instance)));
    await(store().renew(instance, LONG));
    assertTrue(await(store().isLive(instance)));
  }

  @Test
  void anIdIsRegisteredOnce() {
    String instance = live(LONG);
    assertInstanceOf(IllegalStateException.class, failure(store().register(instance, LONG)));
  }

  @Test
  void anUnknownInstanceCannotRenew() {
    Throwable lost = failure(store().renew(id("never-registered"), LONG));
    assertInstanceOf(LeaseLostException.class, lost);
    assertFalse(await(store().isLive(id("never-registered"))));
  }

  @Test
  void aLeaseNotRenewedLapsesAndStaysLost() throws InterruptedException {
    String instance = live(SHORT);
    awaitLapsed(instance);
    assertInstanceOf(LeaseLostException.class, failure(store().renew(instance, LONG)));
    assertFalse(await(store().isLive(instance)));
  }

  @Test
  void renewingKeepsALeaseBeyondItsFirstTtl() throws InterruptedException {
    // Renewed every fifth of its TTL, six times: past the first TTL, with room for a slow renewal on a busy machine
    // (a third of 300 ms left a renewal that took 200 ms too late).
    long ttl = 5 * SHORT;
    String instance = live(ttl);
    for (int i = 0; i < 6; i++) {
      Thread.sleep(ttl / 5);
      await(store().renew(instance, ttl));
    }
    assertTrue(await(store().isLive(instance)));
  }

  @Test
  void aReleasedLeaseIsGoneAtOnce() {
    String instance = live(LONG);
    await(store().release(instance));
    assertFalse(await(store().isLive(instance)));
    assertInstanceOf(LeaseLostException.class, failure(store().renew(instance, LONG)));
    await(store().release(instance)); // idempotent
  }

  // ---- sessions ----

  @Test
  void theFirstClaimWinsAndOthersLearnTheOwner() {
    String a = live(LONG);
    String b = live(LONG);
    String session = id("session");
    assertNull(await(store().sessionOwner(session)));
    assertEquals(a, await(store().claimSession(session, a, LONG)));
    assertEquals(a, await(store().claimSession(session, b, LONG)));
    assertEquals(a, await(store().sessionOwner(session)));
    assertEquals(a, await(store().claimSession(session, a, LONG)), "the owner claims again (extends)");
  }

  @Test
  void aSessionOfAReleasedInstanceIsClaimedByAnother() {
    String a = live(LONG);
    String b = live(LONG);
    String session = id("session");
    await(store().claimSession(session, a, LONG));
    await(store().release(a));
    assertNull(await(store().sessionOwner(session)));
    assertEquals(b, await(store().claimSession(session, b, LONG)));
  }

  @Test
  void aSessionOfALapsedInstanceIsClaimedByAnother() throws InterruptedException {
    String a = live(SHORT);
    String b = live(LONG);
    String session = id("session");
    await(store().claimSession(session, a, LONG));
    awaitLapsed(a);
    assertEquals(b, await(store().claimSession(session, b, LONG)));
    assertEquals(b, await(store().sessionOwner(session)));
  }

  @Test
  void anInstanceWithoutALiveLeaseCannotClaim() {
    String a = live(LONG);
    await(store().release(a));
    assertInstanceOf(LeaseLostException.class, failure(store().claimSession(id("session"), a, LONG)));
    assertInstanceOf(LeaseLostException.class,
        failure(store().claimSession(id("session"), id("never-registered"), LONG)));
  }

  @Test
  void onlyTheOwnerReleasesAClaim() {
    String a = live(LONG);
    String b = live(LONG);
    String session = id("session");
    await(store().claimSession(session, a, LONG));
    await(store().releaseSession(session, b));
    assertEquals(a, await(store().sessionOwner(session)));
    await(store().releaseSession(session, a));
    assertNull(await(store().sessionOwner(session)));
    assertEquals(b, await(store().claimSession(session, b, LONG)));
  }

  @Test
  void aClaimEndsAfterItsOwnLifetime() throws InterruptedException {
    String a = live(LONG);
    String session = id("session");
    await(store().claimSession(session, a, SHORT));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (await(store().sessionOwner(session)) != null) {
      assertTrue(System.nanoTime() < deadline, "the claim did not end");
      Thread.sleep(50);
    }
  }

  @Test
  void concurrentClaimsAgreeOnOneOwner() {
    String session = id("session");
    List<String> instances = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      instances.add(live(LONG));
    }
    List<Future<String>> claims = new ArrayList<>();
    for (String instance : instances) {
      claims.add(store().claimSession(session, instance, LONG));
    }
    await(Future.all(claims));
    Set<String> owners = new HashSet<>();
    claims.forEach(claim -> owners.add(claim.result()));
    assertEquals(1, owners.size(), "every claimer was told the same owner");
    assertEquals(owners.iterator().next(), await(store().sessionOwner(session)));
  }

  // ---- executions ----

  @Test
  void aLiveInstancesExecutionsAreNotOrphans() {
    String a = live(LONG);
    String task = id("task");
    await(store().executing(a, task));
    assertTrue(orphansOf(drainOrphans(), a).isEmpty());
    await(store().executed(a, task));
  }

  @Test
  void theUnfinishedExecutionsOfAReleasedInstanceAreHandedOutOnce() {
    String a = live(LONG);
    String done = id("task");
    String running1 = id("task");
    String running2 = id("task");
    await(store().executing(a, done));
    await(store().executing(a, running1));
    await(store().executing(a, running2));
    await(store().executed(a, done));
    await(store().release(a));
    assertEquals(Set.of(running1, running2), new HashSet<>(orphansOf(drainOrphans(), a)));
    assertTrue(orphansOf(drainOrphans(), a).isEmpty(), "handed out once");
  }

  @Test
  void theExecutionsOfALapsedInstanceAreOrphans() throws InterruptedException {
    String a = live(SHORT);
    String task = id("task");
    await(store().executing(a, task));
    awaitLapsed(a);
    assertEquals(List.of(task), orphansOf(drainOrphans(), a));
  }

  @Test
  void orphansComeInBatchesOfAtMostMax() {
    String a = live(LONG);
    for (int i = 0; i < 5; i++) {
      await(store().executing(a, id("task")));
    }
    await(store().release(a));
    List<Orphan> taken = new ArrayList<>();
    for (int round = 0; round < 10; round++) {
      List<Orphan> batch = await(store().takeOrphans(2));
      assertTrue(batch.size() <= 2, "at most max: " + batch.size());
      taken.addAll(batch);
    }
    assertEquals(5, orphansOf(taken, a).size());
  }

  @Test
  void concurrentSweepersNeverShareAnOrphan() {
    String a = live(LONG);
    Set<String> tasks = new HashSet<>();
    for (int i = 0; i < 30; i++) {
      String task = id("task");
      tasks.add(task);
      await(store().executing(a, task));
    }
    await(store().release(a));
    List<Future<List<Orphan>>> sweeps = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      sweeps.add(store().takeOrphans(4));
    }
    await(Future.all(sweeps));
    List<String> taken = new ArrayList<>();
    sweeps.forEach(sweep -> taken.addAll(orphansOf(sweep.result(), a)));
    taken.addAll(orphansOf(drainOrphans(), a));
    assertEquals(tasks.size(), taken.size(), "no orphan handed out twice");
    assertEquals(tasks, new HashSet<>(taken));
  }
}
