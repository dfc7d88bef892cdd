package io.mcpvertx.server.stateless;

import io.mcpvertx.server.RequestContext;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Tool calls that wait, each at one point of its handler, until the test lets them go: how the task tests make a
 * handler "slow" without a clock. {@link #next()} hands the test each call as it arrives, in order.
 *
 * <p>Thread-safe. A call is released or failed on the context its handler runs on, as its own code would.
 */
final class HeldCalls {

  private final Deque<Held> arrived = new ArrayDeque<>();
  private final Deque<Promise<Held>> waiting = new ArrayDeque<>();

  /** One call waiting at its hold point. */
  static final class Held {

    private final RequestContext ctx;
    private final Context context;
    private final Promise<Void> gate = Promise.promise();
    private final Promise<String> cancelled = Promise.promise();

    private Held(RequestContext ctx, Context context) {
      this.ctx = ctx;
      this.context = context;
      ctx.onCancel(cancelled::tryComplete);
    }

    RequestContext ctx() {
      return ctx;
    }

    /** Lets the handler go on; completes once it has (the handler's next steps ran on its context). */
    Future<Void> release() {
      return onContext(() -> gate.tryComplete());
    }

    /**
     * Lets the handler go on after {@code hops} turns of its context: a race can be shifted a little at a time,
     * without a clock.
     */
    Future<Void> releaseAfter(int hops) {
      if (hops <= 0) {
        return release();
      }
      Promise<Void> done = Promise.promise();
      context.runOnContext(v -> releaseAfter(hops - 1).onComplete(done));
      return done.future();
    }

    /** Makes the hold point fail with {@code failure}, as if the awaited work had failed. */
    Future<Void> fail(Throwable failure) {
      return onContext(() -> gate.tryFail(failure));
    }

    /** The reason the call (or its task) was cancelled, once it is: what the handler's onCancel saw. */
    Future<String> cancelled() {
      return cancelled.future();
    }

    private Future<Void> onContext(Runnable action) {
      Promise<Void> done = Promise.promise();
      context.runOnContext(v -> {
        action.run();
        done.complete();
      });
      return done.future();
    }
  }

  /** Called by a handler: waits there until the test releases (or fails) this call. */
  Future<Void> hold(RequestContext ctx) {
    Context context = Vertx.currentContext();
    if (context == null) {
      throw new IllegalStateException("Handlers run on a Vert.x context");
    }
    Held held = new Held(ctx, context);
    Promise<Held> taker;
    synchronized (this) {
      taker = waiting.poll();
      if (taker == null) {
        arrived.add(held);
      }
    }
    if (taker != null) {
      taker.complete(held);
    }
    return held.gate.future();
  }

  /** The next call to reach its hold point (one that already has, first). */
  Future<Held> next() {
    Held held;
    Promise<Held> promise;
    synchronized (this) {
      held = arrived.poll();
      if (held != null) {
        return Future.succeededFuture(held);
      }
      promise = Promise.promise();
      waiting.add(promise);
    }
    return promise.future();
  }
}
