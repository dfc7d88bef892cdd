package io.mcpvertx.testing;

import io.mcpvertx.spi.EventStore;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;

/**
 * An event store that hands every call to another one: a test store overrides the one call it changes (a failing
 * ping, a late acknowledgement) and keeps the rest real.
 */
public abstract class ForwardingEventStore implements EventStore {

  protected final EventStore delegate;

  protected ForwardingEventStore(EventStore delegate) {
    this.delegate = delegate;
  }

  @Override
  public Future<String> append(String sessionId, String streamId, Buffer data) {
    return delegate.append(sessionId, streamId, data);
  }

  @Override
  public Future<Void> complete(String sessionId, String streamId) {
    return delegate.complete(sessionId, streamId);
  }

  @Override
  public Future<Replay> replayAfter(String sessionId, String lastEventId) {
    return delegate.replayAfter(sessionId, lastEventId);
  }

  @Override
  public Future<Void> removeSession(String sessionId) {
    return delegate.removeSession(sessionId);
  }

  @Override
  public String streamOf(String eventId) {
    return delegate.streamOf(eventId);
  }

  @Override
  public Future<Void> ping() {
    return delegate.ping();
  }

  @Override
  public Future<Void> close() {
    return delegate.close();
  }
}
