package io.mcpvertx.spi.sessions;

import io.vertx.core.Future;

/**
 * Keeps 2025-generation sessions so that any instance can serve a session another one created, and so that a
 * session survives the instance that held it. A session is written when it changes (initialize, log level,
 * subscriptions) and its lifetime is extended while it is used; an idle session expires on its own.
 *
 * <p>At most one instance serves a session at a time (the cluster assigns it), so a record is replaced whole:
 * there are no concurrent writers to reconcile.
 *
 * <p>Implementations are thread-safe, never block the caller, and enforce expiry themselves: once a record's
 * lifetime has passed, {@link #get} yields null whether or not it has been purged.
 */
public interface SessionStore {

  /** Stores (or replaces) the record; it expires after {@code ttlMs} unless touched or put again. */
  Future<Void> put(SessionRecord record, long ttlMs);

  /** The record, or null when there is none (never stored, removed, or expired). */
  Future<SessionRecord> get(String sessionId);

  /** Extends the lifetime to {@code ttlMs} from now; false when there is no such session. */
  Future<Boolean> touch(String sessionId, long ttlMs);

  /** Forgets the session (it was deleted); true when there was one. */
  Future<Boolean> remove(String sessionId);

  /**
   * Succeeds when the store can serve requests now; a readiness check. Stores in this JVM's memory succeed at once
   * (the default); a remote store asks its server and fails fast when it cannot be reached.
   */
  default Future<Void> ping() {
    return Future.succeededFuture();
  }

  /** Releases connections and timers. */
  default Future<Void> close() {
    return Future.succeededFuture();
  }
}
