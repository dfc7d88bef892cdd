package io.mcpvertx.metrics.impl;

import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.spi.sessions.SessionStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;

/** A {@link SessionStore} whose operations are timed and counted by outcome. */
final class MeteredSessionStore implements SessionStore {

  private final SessionStore store;
  private final StoreMeter put;
  private final StoreMeter get;
  private final StoreMeter touch;
  private final StoreMeter remove;
  private final StoreMeter ping;

  MeteredSessionStore(SessionStore store, MeterRegistry registry) {
    this.store = store;
    String backend = StoreMeter.backend(store);
    this.put = new StoreMeter(registry, "sessions", backend, "put");
    this.get = new StoreMeter(registry, "sessions", backend, "get");
    this.touch = new StoreMeter(registry, "sessions", backend, "touch");
    this.remove = new StoreMeter(registry, "sessions", backend, "remove");
    this.ping = new StoreMeter(registry, "sessions", backend, "ping");
  }

  @Override
  public Future<Void> put(SessionRecord record, long ttlMs) {
    return put.time(() -> store.put(record, ttlMs));
  }

  @Override
  public Future<SessionRecord> get(String sessionId) {
    return get.time(() -> store.get(sessionId));
  }

  @Override
  public Future<Boolean> touch(String sessionId, long ttlMs) {
    return touch.time(() -> store.touch(sessionId, ttlMs));
  }

  @Override
  public Future<Boolean> remove(String sessionId) {
    return remove.time(() -> store.remove(sessionId));
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
