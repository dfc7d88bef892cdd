package io.mcpvertx.verticles.http.impl.session;

import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.spi.sessions.SessionStore;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * An endpoint's link to a shared {@link SessionStore}: writes each session's record when it changes, extends its
 * lifetime while it is used, reads records for sessions this instance does not hold, and removes deleted ones.
 * Thread-safe; never blocks.
 *
 * <p>A record lives {@code idle timeout + idle timeout / 4} from its last write or extension, and a used session is
 * extended at most once per quarter of the idle timeout: so a record outlives the local session it describes (which
 * ends after the idle timeout without use), and a session in constant use costs one store command per quarter of
 * the idle timeout, sent without waiting for it.
 */
public final class StoredSessions {

  private static final Logger LOG = LoggerFactory.getLogger(StoredSessions.class);

  private final SessionStore store;
  private final long ttlMs;
  private final long touchIntervalMs;
  /** Called when the store no longer has a session this instance holds and wrote: it was deleted elsewhere. */
  private final BiConsumer<HttpSession, String> gone;
  /** Called whenever a session's lifetime is extended here (so its ownership claim can be extended alike). */
  private volatile Consumer<HttpSession> extended = session -> { };

  StoredSessions(SessionStore store, long idleTimeoutMs, BiConsumer<HttpSession, String> gone) {
    this.store = store;
    this.touchIntervalMs = Math.max(1, idleTimeoutMs / 4);
    this.ttlMs = idleTimeoutMs + touchIntervalMs;
    this.gone = gone;
  }

  /** How long a record lives from its last write or extension. */
  public long ttlMs() {
    return ttlMs;
  }

  /** The least time between two extensions of one session's lifetime. */
  public long touchIntervalMs() {
    return touchIntervalMs;
  }

  public void onExtended(Consumer<HttpSession> extended) {
    this.extended = extended;
  }

  /** Writes a session's new record; the session verticle calls it (one write at a time) on every change. */
  Future<Void> write(HttpSession session, SessionRecord record) {
    session.recordWriting(record);
    return store.put(record, ttlMs).onSuccess(v -> {
      session.storeTouched(System.currentTimeMillis());
      session.recordStored(record);
    });
  }

  /**
   * The session was used: extends its record's lifetime when a quarter of the idle timeout has passed since the
   * last extension. Fire-and-forget: the request goes on at once, a failure is logged. When the record turns out to
   * be gone although it was written, the session was deleted through another instance (or expired in the store),
   * and it ends here too; when the last write had failed, the record is written again.
   */
  void used(HttpSession session) {
    if (!session.storeTouchDue(System.currentTimeMillis(), touchIntervalMs)) {
      return;
    }
    extended.accept(session);
    store.touch(session.id(), ttlMs).onComplete(ar -> {
      if (ar.failed()) {
        LOG.warn("Session " + session.id() + ": extending its stored record failed: " + ar.cause());
      } else if (!ar.result()) {
        SessionRecord record = session.record();
        if (record == null) {
          return; // not written yet (initialize is still being answered)
        }
        if (session.recordWritten()) {
          gone.accept(session, "its record is gone from the session store (deleted through another instance)");
        } else {
          store.put(record, ttlMs).onSuccess(v -> session.recordStored(record))
              .onFailure(e -> LOG.warn("Session " + session.id() + ": storing its record failed: "
                  + e));
        }
      }
    });
  }

  /** The stored record of a session, or null. */
  public Future<SessionRecord> find(String sessionId) {
    return store.get(sessionId);
  }

  /** Forgets a deleted session. */
  Future<Void> remove(String sessionId) {
    return store.remove(sessionId).mapEmpty();
  }
}
