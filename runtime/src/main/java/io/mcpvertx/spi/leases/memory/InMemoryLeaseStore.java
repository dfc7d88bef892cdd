package io.mcpvertx.spi.leases.memory;

import io.mcpvertx.spi.leases.LeaseLostException;
import io.mcpvertx.spi.leases.LeaseStore;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * A {@link LeaseStore} in this JVM's memory: for several servers of one JVM (tests, or a single instance that
 * wants the same code path as a cluster). Expiry is read on the clock at every call.
 *
 * <p>Every operation holds one monitor for a few map operations: never across I/O or a wait, so callers on event
 * loops are never held up for longer than that. It makes each operation atomic, as the Redis store's scripts are.
 */
public final class InMemoryLeaseStore implements LeaseStore {

  private record Claim(String owner, long expiresAt) {
  }

  private final LongSupplier clock;
  private final Object lock = new Object();
  /**
   * Every instance ever registered, and when its lease ends (0 once released). Dead ones are kept so their ids are
   * never granted again; an entry costs a few bytes per instance start.
   */
  private final Map<String, Long> leases = new HashMap<>();
  private final Map<String, Claim> claims = new HashMap<>();
  /** Unfinished executions per instance, in start order. */
  private final Map<String, Set<String>> executions = new LinkedHashMap<>();

  private InMemoryLeaseStore(LongSupplier clock) {
    this.clock = clock;
  }

  public static InMemoryLeaseStore create() {
    return create(System::currentTimeMillis);
  }

  /** With a clock (a seam for tests). */
  public static InMemoryLeaseStore create(LongSupplier clock) {
    return new InMemoryLeaseStore(clock);
  }

  @Override
  public Future<Void> register(String instanceId, long ttlMs) {
    requirePositive(ttlMs);
    synchronized (lock) {
      if (leases.containsKey(instanceId)) {
        return Future.failedFuture(new IllegalStateException("instance id already registered: " + instanceId));
      }
      leases.put(instanceId, clock.getAsLong() + ttlMs);
    }
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> renew(String instanceId, long ttlMs) {
    requirePositive(ttlMs);
    synchronized (lock) {
      long now = clock.getAsLong();
      if (!live(instanceId, now)) {
        return Future.failedFuture(new LeaseLostException(instanceId));
      }
      leases.put(instanceId, now + ttlMs);
    }
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> release(String instanceId) {
    synchronized (lock) {
      if (leases.containsKey(instanceId)) {
        leases.put(instanceId, 0L);
      }
      dropClaims(instanceId);
    }
    return Future.succeededFuture();
  }

  @Override
  public Future<Boolean> isLive(String instanceId) {
    synchronized (lock) {
      return Future.succeededFuture(live(instanceId, clock.getAsLong()));
    }
  }

  @Override
  public Future<String> claimSession(String sessionId, String instanceId, long ttlMs) {
    requirePositive(ttlMs);
    synchronized (lock) {
      long now = clock.getAsLong();
      if (!live(instanceId, now)) {
        return Future.failedFuture(new LeaseLostException(instanceId));
      }
      String owner = owner(sessionId, now);
      if (owner != null && !owner.equals(instanceId)) {
        return Future.succeededFuture(owner);
      }
      claims.put(sessionId, new Claim(instanceId, now + ttlMs));
      return Future.succeededFuture(instanceId);
    }
  }

  @Override
  public Future<String> sessionOwner(String sessionId) {
    synchronized (lock) {
      return Future.succeededFuture(owner(sessionId, clock.getAsLong()));
    }
  }

  @Override
  public Future<Void> releaseSession(String sessionId, String instanceId) {
    synchronized (lock) {
      Claim claim = claims.get(sessionId);
      if (claim != null && claim.owner().equals(instanceId)) {
        claims.remove(sessionId);
      }
    }
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> executing(String instanceId, String taskId) {
    synchronized (lock) {
      executions.computeIfAbsent(instanceId, id -> new LinkedHashSet<>()).add(taskId);
    }
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> executed(String instanceId, String taskId) {
    synchronized (lock) {
      Set<String> running = executions.get(instanceId);
      if (running != null && running.remove(taskId) && running.isEmpty()) {
        executions.remove(instanceId);
      }
    }
    return Future.succeededFuture();
  }

  @Override
  public Future<List<Orphan>> takeOrphans(int max) {
    List<Orphan> taken = new ArrayList<>();
    synchronized (lock) {
      long now = clock.getAsLong();
      for (String instanceId : new ArrayList<>(leases.keySet())) {
        if (taken.size() >= max) {
          break;
        }
        if (live(instanceId, now)) {
          continue;
        }
        Set<String> running = executions.get(instanceId);
        if (running != null) {
          for (Iterator<String> it = running.iterator(); it.hasNext() && taken.size() < max; ) {
            taken.add(new Orphan(it.next(), instanceId));
            it.remove();
          }
          if (running.isEmpty()) {
            executions.remove(instanceId);
          }
        }
        dropClaims(instanceId);
      }
    }
    return Future.succeededFuture(taken);
  }

  /** Drops the session claims of a dead instance. Its id stays known (as gone), so a late renew still fails. */
  private void dropClaims(String instanceId) {
    if (!live(instanceId, clock.getAsLong())) {
      claims.values().removeIf(claim -> claim.owner().equals(instanceId));
    }
  }

  private boolean live(String instanceId, long now) {
    Long until = leases.get(instanceId);
    return until != null && until > now;
  }

  private String owner(String sessionId, long now) {
    Claim claim = claims.get(sessionId);
    if (claim == null) {
      return null;
    }
    if (claim.expiresAt() <= now || !live(claim.owner(), now)) {
      claims.remove(sessionId);
      return null;
    }
    return claim.owner();
  }

  private static void requirePositive(long ttlMs) {
    if (ttlMs < 1) {
      throw new IllegalArgumentException("ttlMs must be positive");
    }
  }
}
