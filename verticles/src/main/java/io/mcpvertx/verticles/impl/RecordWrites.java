package io.mcpvertx.verticles.impl;

import io.mcpvertx.spi.sessions.SessionRecord;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Writes one session's records in order, one at a time: a record that changes while a write is in flight waits,
 * and only the newest waiting record is written (an older one would be replaced at once anyway). So a slow store
 * never sees a stale record land after a newer one, and at most two records are held whatever the client does.
 *
 * <p>Confined to the session verticle's context.
 */
public final class RecordWrites {

  private static final Logger LOG = LoggerFactory.getLogger(RecordWrites.class);

  private final Function<SessionRecord, Future<?>> store;
  private boolean writing;
  private SessionRecord waiting;
  private final List<Promise<Void>> settled = new ArrayList<>();

  public RecordWrites(Function<SessionRecord, Future<?>> store) {
    this.store = store;
  }

  /** Writes {@code record} once the write in flight (if any) is over. */
  public void write(SessionRecord record) {
    if (writing) {
      waiting = record;
      return;
    }
    writing = true;
    Future<?> write;
    try {
      write = store.apply(record);
    } catch (RuntimeException e) {
      write = Future.failedFuture(e);
    }
    write.onComplete(ar -> {
      if (ar.failed()) {
        // The session goes on here; another instance would find an older record, or none, until the next change.
        LOG.warn("Session " + record.sessionId() + ": storing its record failed: " + ar.cause());
      }
      writing = false;
      SessionRecord next = waiting;
      waiting = null;
      if (next != null) {
        write(next);
      } else {
        List<Promise<Void>> done = new ArrayList<>(settled);
        settled.clear();
        done.forEach(Promise::complete);
      }
    });
  }

  /** Whether a write is in flight. */
  public boolean busy() {
    return writing;
  }

  /** Completes when no write is in flight or waiting (at once when none is), whether the writes succeeded or not. */
  public Future<Void> settled() {
    if (!writing) {
      return Future.succeededFuture();
    }
    Promise<Void> promise = Promise.promise();
    settled.add(promise);
    return promise.future();
  }
}
