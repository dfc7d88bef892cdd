package io.mcpvertx.server;

import io.vertx.core.Handler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The cancellation state of one request, for {@link RequestContext} implementations: whether the client
 * cancelled, the handlers to tell, and whether the request already finished (after which a cancellation no
 * longer counts).
 *
 * <p>{@link #isCancelled()} may be read from any thread (a blocking handler polls it); everything else is called
 * on the context that owns the request.
 */
public final class CancellationSignal {

  private static final Logger LOG = LoggerFactory.getLogger(CancellationSignal.class);

  private volatile boolean cancelled;
  private String reason;
  private boolean finished;
  private List<Handler<String>> handlers;

  public boolean isCancelled() {
    return cancelled;
  }

  /** Whether the request finished (its response went out, or it was cancelled). */
  public boolean isOver() {
    return finished || cancelled;
  }

  /** Calls {@code handler} with the reason when the request is cancelled; at once if it already was. */
  public void onCancel(Handler<String> handler) {
    if (cancelled) {
      handler.handle(reason);
    } else if (!finished) {
      if (handlers == null) {
        handlers = new ArrayList<>(1);
      }
      handlers.add(handler);
    }
  }

  /**
   * Cancels the request and tells its handlers, each once; a handler that throws is logged and the others still
   * run. False when the request had already finished or been cancelled.
   */
  public boolean cancel(String reason) {
    if (cancelled || finished) {
      return false;
    }
    this.reason = reason;
    cancelled = true;
    if (handlers != null) {
      for (Handler<String> handler : handlers) {
        try {
          handler.handle(reason);
        } catch (RuntimeException e) {
          LOG.warn("A cancellation handler failed", e);
        }
      }
      handlers = null;
    }
    return true;
  }

  /** The request finished: a later cancellation is ignored and the handlers are let go. */
  public void finish() {
    finished = true;
    handlers = null;
  }

  /** Whether {@link #finish()} was called. */
  public boolean isFinished() {
    return finished;
  }
}
