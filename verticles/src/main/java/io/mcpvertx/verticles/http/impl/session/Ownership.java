package io.mcpvertx.verticles.http.impl.session;

import io.mcpvertx.server.Principal;
import io.vertx.core.Future;

/**
 * Clustered: which instance runs each session, so exactly one does. The {@link SessionTable} asks it at the
 * points where a session's place matters; an unclustered table has none and runs every session it knows itself.
 */
public interface Ownership {

  /** Claims a new session's id for this instance; fails when the claim cannot be made. */
  Future<Void> claimNew(String sessionId);

  /**
   * A stored session this table does not hold, for a request of {@code caller}: restored here when it is this
   * instance's to run ({@link SessionTable#restoreHere}), or routed to the instance that runs it; null when there is
   * no such session or the caller may not use it.
   */
  Future<HttpSession> find(String sessionId, Principal caller);

  /** The session (or the route to it) ended here. */
  void ended(HttpSession session, boolean deleted);

  /** A remote session was used here: its owner hears of it (throttled), so it does not expire there. */
  void usedRemote(HttpSession session);

  /** A remote session was deleted here: its owner ends it; completes once it has (or is gone). */
  Future<Void> deleteRemote(HttpSession session);

  /**
   * How long a request may be held for a session whose owner did not take it (the owner died): long enough for a
   * dead owner's lease to lapse and be noticed, so the session can move.
   */
  long failoverBoundMs();

  /**
   * The owner of {@code route} did not take a request: completes with true once its lease is gone (the session may
   * move), with false when it is still live, or still not known gone after {@code boundMs}.
   */
  Future<Boolean> ownerGone(HttpSession route, long boundMs);
}
