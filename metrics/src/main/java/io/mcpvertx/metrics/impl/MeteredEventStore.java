package io.mcpvertx.metrics.impl;

import io.mcpvertx.spi.EventStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.List;

/** An {@link EventStore} whose operations are timed, and whose events appended and replayed are counted. */
final class MeteredEventStore implements EventStore {

  private final EventStore store;
  private final StoreMeter append;
  private final StoreMeter complete;
  private final StoreMeter replay;
  private final StoreMeter remove;
  private final StoreMeter ping;
  private final Counter appended;
  private final Counter replayed;

  MeteredEventStore(EventStore store, MeterRegistry registry) {
    this.store = store;
    String backend = StoreMeter.backend(store);
    this.append = new StoreMeter(registry, "events", backend, "append");
    this.complete = new StoreMeter(registry, "events", backend, "complete");
    this.replay = new StoreMeter(registry, "events", backend, "replay");
    this.remove = new StoreMeter(registry, "events", backend, "remove_session");
    this.ping = new StoreMeter(registry, "events", backend, "ping");
    this.appended = Counter.builder("mcp.server.events.appended")
        .description("SSE events stored for resumption").register(registry);
    this.replayed = Counter.builder("mcp.server.events.replayed")
        .description("SSE events replayed to clients resuming with Last-Event-ID").register(registry);
  }

  @Override
  public Future<String> append(String sessionId, String streamId, Buffer data) {
    return append.time(() -> store.append(sessionId, streamId, data)).onSuccess(id -> appended.increment());
  }

  @Override
  public Future<Void> complete(String sessionId, String streamId) {
    return complete.time(() -> store.complete(sessionId, streamId));
  }

  /** Timed as an append (it is one, of several events), counted by the events it stored. */
  @Override
  public Future<List<String>> appendAndComplete(String sessionId, String streamId, List<Buffer> data) {
    return append.time(() -> store.appendAndComplete(sessionId, streamId, data))
        .onSuccess(ids -> appended.increment(ids.size()));
  }

  @Override
  public Future<Replay> replayAfter(String sessionId, String lastEventId) {
    return replay.time(() -> store.replayAfter(sessionId, lastEventId))
        .onSuccess(r -> replayed.increment(r.events().size()));
  }

  @Override
  public Future<Void> removeSession(String sessionId) {
    return remove.time(() -> store.removeSession(sessionId));
  }

  @Override
  public String streamOf(String eventId) {
    return store.streamOf(eventId);
  }

  @Override
  public Future<Void> ping() {
    return ping.time(store::ping);
  }

  @Override
  public Future<Void> close() {
    return store.close();
  }
}
