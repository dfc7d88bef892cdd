package io.mcpvertx.verticles.impl;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * Deploys a session verticle on the event loop of the code that creates the session, so that the requests that
 * keep arriving there (the same HTTP verticle, usually the same connection) reach the session without a thread hop.
 *
 * <p>Vert.x gives a new deployment the next event loop of its group, round robin, and has no public way to ask for
 * a given one. So the verticle is told which loop it should start on, and a start elsewhere fails at once, before
 * the session exists; the deployment is then made again. Consecutive deployments walk the loops in turn, so the
 * wanted loop comes within as many attempts as there are loops when nothing else deploys meanwhile. The attempts
 * are bounded: the last one starts wherever it lands, which is correct, only a hop away.
 */
public final class SessionPlacement {

  /**
   * Attempts before a session starts on whatever loop it gets: Vert.x's default of two event loops per core covers
   * a two-core machine; with more loops than this, a session lands on the wanted loop only by chance.
   */
  static final int MAX_ATTEMPTS = 4;

  private SessionPlacement() {
  }

  /** The event loop a session created by the calling code should run on: the caller's own, when it runs on one. */
  public static Thread here() {
    return Context.isOnEventLoopThread() ? Thread.currentThread() : null;
  }

  /** Deploys {@code verticle} on the event loop of {@code wanted} (from {@link #here}) if it can, else anywhere. */
  public static Future<String> deploy(Vertx vertx, SessionVerticle verticle, Thread wanted) {
    if (wanted == null) {
      return vertx.deployVerticle(verticle);
    }
    return attempt(vertx, verticle, wanted, 1);
  }

  private static Future<String> attempt(Vertx vertx, SessionVerticle verticle, Thread wanted, int attempt) {
    verticle.placeOn(attempt < MAX_ATTEMPTS ? wanted : null);
    return vertx.deployVerticle(verticle).recover(e -> e == Misplaced.INSTANCE
        ? attempt(vertx, verticle, wanted, attempt + 1)
        : Future.failedFuture(e));
  }

  /** A start on another loop than the wanted one: expected, so without a stack trace. */
  static final class Misplaced extends RuntimeException {

    static final Misplaced INSTANCE = new Misplaced();

    private Misplaced() {
      super("started on another event loop than the one asked for", null, false, false);
    }
  }
}
