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
}
