package io.mcpvertx.server;

import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.leases.LeaseStore;
import io.mcpvertx.spi.leases.memory.InMemoryLeaseStore;
import io.mcpvertx.spi.memory.InMemoryEventStore;
import io.mcpvertx.spi.sessions.SessionStore;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.memory.InMemoryTaskStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a server keeps beyond one request, in one place: its tasks, the events of its SSE streams, its
 * sessions and the leases of a deployment's instances. A server is given its stores once,
 * {@code McpServer.create(vertx, options, stores)}, and its transports take theirs from it.
 *
 * <ul>
 *   <li>{@link #inMemory} (what {@code McpServer.create(vertx, options)} uses): everything in this JVM's memory;
 *   sessions live in the endpoint that serves them, and a session that ends (deleted, idle, or the server closing)
 *   takes its events with it.</li>
 *   <li>Shared stores ({@code RedisStores.create(vertx, redisOptions)} in the storage-redis module, or a
 *   {@link #builder} given a {@link SessionStore}): every endpoint configured with the same stores can serve every
 *   session. Each session's record is written to the session store when it changes (initialize, initialized, log
 *   level, subscriptions), with the session idle timeout as its lifetime, extended while the session is used. A
 *   request naming a session an endpoint does not hold finds it there, and the session is restored there. Only
 *   {@code DELETE} removes a record and its events: a session that goes idle, or a server that closes, leaves them
 *   for other instances, and the stores' own expiry ends them.</li>
 * </ul>
 *
 * <p>Clustered (the server was created with an {@code McpInstance} holding its lease in {@link #leases()}, and the
 * instances share a clustered event bus): each session runs on exactly one instance, the one holding its claim;
 * every other instance routes the session's requests to it over the event bus, and streams held anywhere carry
 * what it sends. When the owner stops (its lease released or lapsed), the session moves to whichever instance gets
 * its next request. See {@code docs/cluster.md}.
 *
 * <p>Limits of sharing without a clustered event bus and an instance: a client that resumes on instance B a stream
 * still being produced on instance A gets the events stored so far, and what A adds later only when it resumes
 * again; a session held by two instances at once (restored on B while A still holds it) runs on both, and a change
 * made through one is not seen by the other until it restores the session again; a session deleted through B stays
 * usable on A until A's next lifetime extension (at most a quarter of the idle timeout later) finds the record gone.
 * Route a session's requests to one instance (sticky sessions) there.
 *
 * <p>The stores belong to the caller, who may share them between servers: servers and transports never close
 * them. Make them outside any verticle (or in one that lives as long as their users), before the server; close
 * them after it.
 */
public interface McpStores {

  /** Every store in this JVM's memory, with the in-memory stores' default bounds; sessions stay in their endpoint. */
  static McpStores inMemory(Vertx vertx) {
    return builder(vertx).build();
  }

  /** Stores of the caller's choosing; those not given are in this JVM's memory. */
  static Builder builder(Vertx vertx) {
    return new Builder(vertx);
  }

  /** Where tasks are kept, for both task wires. */
  TaskStore tasks();

  /** Where the events of SSE streams are kept, for {@code Last-Event-ID} resumption. */
  EventStore events();

  /** Where sessions are kept for other endpoints to serve; empty when sessions live in their endpoint only. */
  Optional<SessionStore> sessions();

  /** Who owns sessions and task executions among a deployment's instances (see {@code McpInstance}). */
  LeaseStore leases();

  /** Succeeds when every store can serve requests now; a readiness check. */
  default Future<Void> ping() {
    return Future.all(tasks().ping(), events().ping(), sessions().map(SessionStore::ping)
        .orElseGet(Future::succeededFuture), leases().ping()).mapEmpty();
  }

  /** Closes every store of the bundle (not the leases held in it: an instance releases its own). */
  default Future<Void> close() {
    return Future.join(tasks().close(), events().close(), sessions().map(SessionStore::close)
        .orElseGet(Future::succeededFuture), leases().close()).mapEmpty();
  }

  /**
   * Assembles stores; {@link #build} fills in what was not given with in-memory stores (none for sessions, which
   * then stay in their endpoint). Not thread-safe: build on one thread.
   */
  final class Builder {

    private final Vertx vertx;
    private TaskStore tasks;
    private EventStore events;
    private SessionStore sessions;
    private LeaseStore leases;

    private Builder(Vertx vertx) {
      this.vertx = Objects.requireNonNull(vertx, "vertx");
    }

    public Builder tasks(TaskStore tasks) {
      this.tasks = Objects.requireNonNull(tasks, "tasks");
      return this;
    }

    /** An in-memory store with bounds of its own is {@code new InMemoryEventStore(max, streams, maxAgeMs)}. */
    public Builder events(EventStore events) {
      this.events = Objects.requireNonNull(events, "events");
      return this;
    }

    /** Makes sessions shared: any endpoint configured with this store may serve any of them. */
    public Builder sessions(SessionStore sessions) {
      this.sessions = Objects.requireNonNull(sessions, "sessions");
      return this;
    }

    public Builder leases(LeaseStore leases) {
      this.leases = Objects.requireNonNull(leases, "leases");
      return this;
    }

    public McpStores build() {
      return new StoreBundle(tasks != null ? tasks : InMemoryTaskStore.create(vertx),
          events != null ? events : new InMemoryEventStore(), Optional.ofNullable(sessions),
          leases != null ? leases : InMemoryLeaseStore.create());
    }
  }
}
