package io.mcpvertx.spi.memory;

import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.UnknownEventException;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.LinkedHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The zero-setup {@link EventStore}: events in memory, bounded per stream by count and per event by age, and per
 * session by number of streams (the oldest stream is dropped first).
 *
 * <p>Event ids are {@code <streamId>_<sequence>}. Each stream is updated atomically through
 * {@link ConcurrentHashMap#compute}, so several HTTP verticle instances may share one store.
 */
public final class InMemoryEventStore implements EventStore {

  public static final int DEFAULT_MAX_EVENTS_PER_STREAM = 1_000;
  public static final int DEFAULT_MAX_STREAMS_PER_SESSION = 256;
  public static final long DEFAULT_MAX_AGE_MS = 10 * 60 * 1000;

  private final int maxEventsPerStream;
  private final int maxStreamsPerSession;
  private final long maxAgeMs;
  private final LongSupplier clock;
  private final Map<String, SessionEvents> sessions = new ConcurrentHashMap<>();
  private final AtomicLong appends = new AtomicLong();

  /** Every this many appends, sessions whose events have all aged out are dropped. */
  private static final int PURGE_EVERY = 4096;

  private static final class StreamEvents {
    /** Sized for a POST's stream, nearly every stream: a priming event and the answer. It grows when needed. */
    final ArrayDeque<Entry> events = new ArrayDeque<>(2);
    long nextSequence = 1;
    boolean complete;
  }

  private record Entry(long sequence, long storedAt, Buffer data) {
  }

  private static final class SessionEvents {
    final Map<String, StreamEvents> streams = new LinkedHashMap<>();
  }

  /**
   * A store keeping the last {@value #DEFAULT_MAX_EVENTS_PER_STREAM} events of a stream for at most ten minutes, and
   * the last {@value #DEFAULT_MAX_STREAMS_PER_SESSION} streams of a session.
   */
  public InMemoryEventStore() {
    this(DEFAULT_MAX_EVENTS_PER_STREAM, DEFAULT_MAX_STREAMS_PER_SESSION, DEFAULT_MAX_AGE_MS);
  }

  public InMemoryEventStore(int maxEventsPerStream, int maxStreamsPerSession, long maxAgeMs) {
    this(maxEventsPerStream, maxStreamsPerSession, maxAgeMs, System::currentTimeMillis);
  }

  /** With an explicit clock, for tests of age-based retention. */
  public InMemoryEventStore(int maxEventsPerStream, int maxStreamsPerSession, long maxAgeMs, LongSupplier clock) {
    if (maxEventsPerStream < 1 || maxStreamsPerSession < 1 || maxAgeMs < 1) {
      throw new IllegalArgumentException("event store bounds must be positive");
    }
    this.maxEventsPerStream = maxEventsPerStream;
    this.maxStreamsPerSession = maxStreamsPerSession;
    this.maxAgeMs = maxAgeMs;
    this.clock = clock;
  }

  @Override
  public Future<String> append(String sessionId, String streamId, Buffer data) {
    long now = clock.getAsLong();
    long[] sequence = new long[1];
    sessions.compute(sessionId, (id, session) -> {
      SessionEvents s = session == null ? new SessionEvents() : session;
      sequence[0] = appendTo(stream(s, streamId), data, now);
      return s;
    });
    purgeNowAndThen(1, now);
    return Future.succeededFuture(eventId(streamId, sequence[0]));
  }

  @Override
  public Future<Void> complete(String sessionId, String streamId) {
    sessions.computeIfPresent(sessionId, (id, s) -> {
      StreamEvents stream = s.streams.get(streamId);
      if (stream != null) {
        stream.complete = true;
      }
      return s;
    });
    return Future.succeededFuture();
  }

  /** In one update of the session: as the default's appends and complete, without a map update for each. */
  @Override
  public Future<List<String>> appendAndComplete(String sessionId, String streamId, List<Buffer> data) {
    long now = clock.getAsLong();
    int count = data.size();
    long[] first = new long[1];
    sessions.compute(sessionId, (id, session) -> {
      SessionEvents s = session == null ? new SessionEvents() : session;
      StreamEvents stream = stream(s, streamId);
      for (int i = 0; i < count; i++) {
        long sequence = appendTo(stream, data.get(i), now);
        if (i == 0) {
          first[0] = sequence;
        }
      }
      stream.complete = true;
      return s;
    });
    purgeNowAndThen(count, now);
    if (count == 1) {
      return Future.succeededFuture(List.of(eventId(streamId, first[0])));
    }
    List<String> ids = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      ids.add(eventId(streamId, first[0] + i));
    }
    return Future.succeededFuture(ids);
  }

  /** The stream of a session, made when first used; the session's oldest stream goes when it holds too many. */
  private StreamEvents stream(SessionEvents s, String streamId) {
    StreamEvents stream = s.streams.get(streamId);
    if (stream == null) {
      if (s.streams.size() >= maxStreamsPerSession) {
        Iterator<String> oldest = s.streams.keySet().iterator();
        oldest.next();
        oldest.remove();
      }
      stream = new StreamEvents();
      s.streams.put(streamId, stream);
    }
    return stream;
  }

  /** Appends one event within the session's update; yields its sequence. */
  private long appendTo(StreamEvents stream, Buffer data, long now) {
    long sequence = stream.nextSequence++;
    stream.events.addLast(new Entry(sequence, now, data));
    while (stream.events.size() > maxEventsPerStream) {
      stream.events.removeFirst();
    }
    expire(stream, now);
    return sequence;
  }

  private static String eventId(String streamId, long sequence) {
    return streamId + "_" + sequence;
  }

  /** Counts {@code appended} events; each time the count passes a multiple of {@link #PURGE_EVERY}, purges. */
  private void purgeNowAndThen(int appended, long now) {
    long after = appends.addAndGet(appended);
    if (after / PURGE_EVERY != (after - appended) / PURGE_EVERY) {
      purgeExpired(now);
    }
  }

  @Override
  public Future<Replay> replayAfter(String sessionId, String lastEventId) {
    int sep = lastEventId == null ? -1 : lastEventId.lastIndexOf('_');
    long after;
    try {
      after = sep <= 0 ? -1 : Long.parseLong(lastEventId.substring(sep + 1));
    } catch (NumberFormatException e) {
      after = -1;
    }
    if (after < 1) {
      return Future.failedFuture(new UnknownEventException("Malformed event id"));
    }
    String streamId = lastEventId.substring(0, sep);
    long afterSequence = after;
    long now = clock.getAsLong();
    Replay[] replay = new Replay[1];
    sessions.computeIfPresent(sessionId, (id, s) -> {
      StreamEvents stream = s.streams.get(streamId);
      if (stream == null) {
        return s;
      }
      expire(stream, now);
      Entry first = stream.events.peekFirst();
      // The client must have seen an event we still hold, or the one just before the oldest we hold.
      if (afterSequence >= stream.nextSequence || (first != null && afterSequence < first.sequence() - 1)
          || (first == null && afterSequence != stream.nextSequence - 1)) {
        return s;
      }
      List<StoredEvent> events = new ArrayList<>();
      for (Entry e : stream.events) {
        if (e.sequence() > afterSequence) {
          events.add(new StoredEvent(eventId(streamId, e.sequence()), e.data()));
        }
      }
      replay[0] = new Replay(streamId, events, stream.complete);
      return s;
    });
    return replay[0] == null
        ? Future.failedFuture(new UnknownEventException("Unknown or expired event id"))
        : Future.succeededFuture(replay[0]);
  }

  @Override
  public Future<Void> removeSession(String sessionId) {
    sessions.remove(sessionId);
    return Future.succeededFuture();
  }

  @Override
  public String streamOf(String eventId) {
    int sep = eventId == null ? -1 : eventId.lastIndexOf('_');
    return sep <= 0 ? null : eventId.substring(0, sep);
  }

  /** Sessions with stored events (for leak checks). */
  public int sessionCount() {
    return sessions.size();
  }

  /**
   * Drops sessions with nothing left to replay. Sessions are removed when they end, but an event appended in a
   * race with that removal would otherwise stay for good; this keeps memory bounded by age whatever happens.
   */
  private void purgeExpired(long now) {
    for (String sessionId : sessions.keySet()) {
      sessions.computeIfPresent(sessionId, (id, s) -> {
        s.streams.values().forEach(stream -> expire(stream, now));
        s.streams.values().removeIf(stream -> stream.events.isEmpty());
        return s.streams.isEmpty() ? null : s;
      });
    }
  }

  private void expire(StreamEvents stream, long now) {
    while (!stream.events.isEmpty() && now - stream.events.peekFirst().storedAt() > maxAgeMs) {
      stream.events.removeFirst();
    }
  }
}
