package io.mcpvertx.verticles.http;

import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.memory.InMemoryEventStore;
import io.mcpvertx.spi.sessions.SessionStore;
import java.util.Objects;
import java.util.Optional;

/**
 * Where an HTTP endpoint keeps what outlives a request: the events of its SSE streams (for {@code Last-Event-ID}
 * resumption) and, when several instances serve the same clients, its sessions.
 *
 * <ul>
 *   <li>{@link #inMemory} (the default) and {@link #local}: sessions live in this endpoint only. A session that
 *   ends (deleted, idle, or the server closing) takes its events with it.</li>
 *   <li>{@link #shared}: every endpoint configured with the same stores (on Redis, say) can serve every session.
 *   Each session's record is written to the {@link SessionStore} when it changes (initialize, initialized, log level,
 *   subscriptions), with the session idle timeout as its lifetime, extended while the session is used. A request
 *   naming a session this endpoint does not hold finds it there, and the session is restored here. Only
 *   {@code DELETE} removes a record and its events: a session that goes idle here, or a server that closes, leaves
 *   them for other instances, and the stores' own expiry ends them.</li>
 * </ul>
 *
 * <p>Clustered (the endpoint's {@link io.mcpvertx.server.McpServer} was created with an
 * {@link io.mcpvertx.server.cluster.McpInstance}, and the instances share a clustered event bus): each session runs
 * on exactly one instance, the one holding its claim in the instance's
 * {@link io.mcpvertx.spi.leases.LeaseStore}; every other instance routes the session's requests to it over the event
 * bus, and streams held anywhere carry what it sends. When the owner stops (its lease released or lapsed), the
 * session moves to whichever instance gets its next request. See {@code docs/cluster.md}.
 *
 * <p>Limits of sharing without a clustered event bus and an instance: a client that resumes on instance B a stream
 * still being produced on instance A gets the events stored so far, and what A adds later only when it resumes
 * again; a session held by two instances at once (restored on B while A still holds it) runs on both, and a change
 * made through one is not seen by the other until it restores the session again; a session deleted through B stays
 * usable on A until A's next lifetime extension (at most a quarter of the idle timeout later) finds the record gone.
 * Route a session's requests to one instance (sticky sessions) there.
 *
 * <p>The endpoint does not close the stores: they belong to the caller, who may share them between endpoints.
 */
public final class McpHttpStores {

  private final EventStore events;
  private final SessionStore sessions;

  private McpHttpStores(EventStore events, SessionStore sessions) {
    this.events = Objects.requireNonNull(events, "events");
    this.sessions = sessions;
  }

  /** Events in this JVM's memory, bounded as {@code options} say; sessions in this endpoint only. */
  public static McpHttpStores inMemory(McpHttpServerOptions options) {
    return local(new InMemoryEventStore(options.getMaxEventsPerStream(), options.getMaxStreamsPerSession(),
        options.getEventRetentionMs()));
  }

  /** Events in {@code events}; sessions in this endpoint only. */
  public static McpHttpStores local(EventStore events) {
    return new McpHttpStores(events, null);
  }

  /**
   * Events and sessions in stores that other endpoints (other instances, or other endpoints of this JVM) share: any
   * of them may serve any session.
   */
  public static McpHttpStores shared(EventStore events, SessionStore sessions) {
    return new McpHttpStores(events, Objects.requireNonNull(sessions, "sessions"));
  }

  public EventStore events() {
    return events;
  }

  /** The session store; empty when sessions live in this endpoint only. */
  public Optional<SessionStore> sessions() {
    return Optional.ofNullable(sessions);
  }

  /** Whether other endpoints may serve this endpoint's sessions. */
  public boolean isShared() {
    return sessions != null;
  }
}
