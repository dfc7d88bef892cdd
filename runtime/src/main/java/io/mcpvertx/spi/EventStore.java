package io.mcpvertx.spi;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the events sent on SSE streams so a client that lost its connection can resume with
 * {@code Last-Event-ID} and get exactly what it missed, on that stream only.
 *
 * <p>Event ids are assigned by the store. Each is unique within its session and names its stream, so an id alone
 * tells which stream to resume. Retention is bounded by count per stream and by age; an id that fell out of
 * retention, or that belongs to another session, is unknown.
 *
 * <p>Implementations are thread-safe and never block the caller.
 */
public interface EventStore {

  /** One stored event: its id and the JSON-RPC message bytes it carried. */
  record StoredEvent(String id, Buffer data) {
  }

  /**
   * What a resumption gets: the stream, the events after the given id, and whether the stream is complete
   * (nothing more will be appended, so the client's GET ends after the replay).
   */
  record Replay(String streamId, List<StoredEvent> events, boolean complete) {
  }

  /** Appends an event to a stream and yields its id. */
  Future<String> append(String sessionId, String streamId, Buffer data);

  /** Marks a stream complete: its request was answered. Replays of it end after the last event. */
  Future<Void> complete(String sessionId, String streamId);

  /**
   * Appends a stream's last events and marks it complete, and yields their ids in order: what {@link #append} for
   * each and then {@link #complete} do, as one operation where the store can (one lock, one round trip). A POST
   * answered at once as a stream stores its priming event and its answer this way. The default does it in steps.
   */
  default Future<List<String>> appendAndComplete(String sessionId, String streamId, List<Buffer> data) {
    List<String> ids = new ArrayList<>(data.size());
    Future<String> appended = Future.succeededFuture();
    for (Buffer event : data) {
      appended = appended.compose(previous -> append(sessionId, streamId, event)).onSuccess(ids::add);
    }
    return appended.compose(last -> complete(sessionId, streamId)).map(v -> ids);
  }

  /**
   * The events of {@code lastEventId}'s stream that follow it. Fails with {@link UnknownEventException} when the
   * id is malformed, belongs to another session, or is no longer retained.
   */
  Future<Replay> replayAfter(String sessionId, String lastEventId);

  /** Forgets everything of a session (it was deleted or expired). */
  Future<Void> removeSession(String sessionId);

  /** The stream an event id belongs to, or null if the id is not one this store issues. */
  String streamOf(String eventId);

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
