package io.mcpvertx.spi.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mcpvertx.spi.EventStore.Replay;
import io.mcpvertx.spi.EventStore.StoredEvent;
import io.mcpvertx.spi.UnknownEventException;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.List;

/**
 * A {@code Last-Event-ID} as a client may send it, against a store holding two sessions with streams of the same
 * names: the stream it names is a prefix of it, a resumption either fails as an unknown event or replays that stream
 * of that session only, after the event named, in order; nothing else escapes (no parse failure, no other
 * session's events).
 */
class EventIdFuzzTest {

  private static final List<String> SESSIONS = List.of("s1", "s2");
  /** Stream ids as the runtime makes them, and two that hold the separator. */
  private static final List<String> STREAMS = List.of("a", "b_c", "0", "_x", "GET-1");
  private static final InMemoryEventStore STORE = filled();

  private static InMemoryEventStore filled() {
    // Four events kept per stream: the first of the six appended to each fall out.
    InMemoryEventStore store = new InMemoryEventStore(4, 16, 60_000, () -> 1_000L);
    for (String session : SESSIONS) {
      for (String stream : STREAMS) {
        for (int i = 1; i <= 6; i++) {
          store.append(session, stream, Buffer.buffer(session + ":" + stream + ":" + i));
        }
      }
      store.complete(session, "b_c");
    }
    return store;
  }

  @FuzzTest
  void resumesOnlyTheNamedStreamOfTheSession(FuzzedDataProvider data) {
    String session = SESSIONS.get(data.consumeInt(0, SESSIONS.size() - 1));
    String lastEventId = data.consumeRemainingAsString();
    String stream = STORE.streamOf(lastEventId);
    if (stream != null) {
      assertTrue(lastEventId.startsWith(stream + "_"), "streamOf(" + lastEventId + ") = " + stream);
    }
    Future<Replay> replay = STORE.replayAfter(session, lastEventId);
    assertTrue(replay.isComplete(), "the memory store answers at once");
    if (replay.failed()) {
      assertInstanceOf(UnknownEventException.class, replay.cause());
      return;
    }
    Replay result = replay.result();
    assertEquals(stream, result.streamId(), "replayed another stream than the id names");
    long after = Long.parseLong(lastEventId.substring(stream.length() + 1));
    long previous = after;
    for (StoredEvent event : result.events()) {
      long sequence = Long.parseLong(event.id().substring(stream.length() + 1));
      assertEquals(stream + "_" + sequence, event.id());
      assertTrue(sequence > previous, "events out of order or not after " + lastEventId);
      assertEquals(session + ":" + stream + ":" + sequence, event.data().toString(), "another session's event");
      previous = sequence;
    }
  }
}
