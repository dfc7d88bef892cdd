package io.mcpvertx.spi.sessions.memory;

import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.spi.sessions.SessionStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.LongSupplier;

/**
 * A {@link SessionStore} in this JVM's memory: the zero-setup default, for a single instance. Expiry is read on
 * the clock at every access, and a periodic purge frees what expired.
 */
public final class InMemorySessionStore implements SessionStore {

  public static final long DEFAULT_PURGE_INTERVAL_MS = 30_000;

  private record Entry(SessionRecord record, long expiresAt) {
  }

  private final Vertx vertx;
  private final LongSupplier clock;
  private final ConcurrentMap<String, Entry> sessions = new ConcurrentHashMap<>();
  private final long purgeTimer;

  private InMemorySessionStore(Vertx vertx, long purgeIntervalMs, LongSupplier clock) {
    this.vertx = vertx;
    this.clock = clock;
    this.purgeTimer = vertx.setPeriodic(purgeIntervalMs, t -> purge());
  }

  public static InMemorySessionStore create(Vertx vertx) {
    return create(vertx, DEFAULT_PURGE_INTERVAL_MS, System::currentTimeMillis);
  }

  /** With a purge interval and a clock (a seam for tests). */
  public static InMemorySessionStore create(Vertx vertx, long purgeIntervalMs, LongSupplier clock) {
    if (purgeIntervalMs < 1) {
      throw new IllegalArgumentException("purgeIntervalMs must be positive");
    }
    return new InMemorySessionStore(vertx, purgeIntervalMs, clock);
  }

  @Override
  public Future<Void> put(SessionRecord record, long ttlMs) {
    requirePositive(ttlMs);
    sessions.put(record.sessionId(), new Entry(record, clock.getAsLong() + ttlMs));
    return Future.succeededFuture();
  }

  @Override
  public Future<SessionRecord> get(String sessionId) {
    Entry entry = live(sessionId);
    return Future.succeededFuture(entry == null ? null : entry.record());
  }

  @Override
  public Future<Boolean> touch(String sessionId, long ttlMs) {
    requirePositive(ttlMs);
    long now = clock.getAsLong();
    Entry touched = sessions.computeIfPresent(sessionId, (id, entry) -> entry.expiresAt() <= now ? null
        : new Entry(entry.record(), now + ttlMs));
    return Future.succeededFuture(touched != null);
  }

  @Override
  public Future<Boolean> remove(String sessionId) {
    Entry removed = sessions.remove(sessionId);
    return Future.succeededFuture(removed != null && removed.expiresAt() > clock.getAsLong());
  }

  @Override
  public Future<Void> close() {
    vertx.cancelTimer(purgeTimer);
    return Future.succeededFuture();
  }

  /** Entries held, expired ones not yet purged included (for tests). */
  public int size() {
    return sessions.size();
  }

  private Entry live(String sessionId) {
    Entry entry = sessionId == null ? null : sessions.get(sessionId);
    return entry == null || entry.expiresAt() <= clock.getAsLong() ? null : entry;
  }

  private void purge() {
    long now = clock.getAsLong();
    sessions.values().removeIf(entry -> entry.expiresAt() <= now);
  }

  private static void requirePositive(long ttlMs) {
    if (ttlMs < 1) {
      throw new IllegalArgumentException("ttlMs must be positive");
    }
  }
}
