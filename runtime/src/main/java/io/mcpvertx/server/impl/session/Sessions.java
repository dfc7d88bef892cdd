package io.mcpvertx.server.impl.session;

import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.McpSession;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.impl.features.BlockingRunner;
import io.mcpvertx.server.impl.features.Capabilities;
import io.mcpvertx.server.impl.features.FeatureDispatcher;
import io.mcpvertx.server.impl.features.FeatureRegistry;
import io.mcpvertx.server.impl.observe.ObserverSlot;
import io.mcpvertx.server.impl.tasks.TaskEngine;
import io.mcpvertx.server.observe.McpObserver;
import io.mcpvertx.spi.sessions.SessionRecord;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The 2025 sessions of one server: what every {@link SessionEngine} shares (the features, their dispatcher, the
 * 2025-11-25 task wire, the limits), and the factory of new and restored sessions. Immutable and thread-safe; the
 * sessions it makes are each confined to their own event-loop context.
 */
public final class Sessions {

  private final Vertx vertx;
  private final McpServerOptions options;
  private final FeatureRegistry registry;
  private final FeatureDispatcher features;
  private final Capabilities capabilities;
  private final BlockingRunner blockingRunner;
  private final SessionTasks tasks;
  private final Supplier<Handler<McpSession>> rootsChanged;
  private final ObserverSlot observers;

  /**
   * @param rootsChanged the handler to call when a client's roots change, read at each change (it may be set later)
   */
  public Sessions(Vertx vertx, McpServerOptions options, FeatureRegistry registry, FeatureDispatcher features,
      Capabilities capabilities, BlockingRunner blockingRunner, TaskEngine taskEngine,
      Supplier<Handler<McpSession>> rootsChanged, ObserverSlot observers) {
    this.vertx = vertx;
    this.options = options;
    this.registry = registry;
    this.features = features;
    this.capabilities = capabilities;
    this.blockingRunner = blockingRunner;
    this.tasks = new SessionTasks(taskEngine, registry, features, options.getPageSize());
    this.rootsChanged = rootsChanged;
    this.observers = observers;
  }

  /** A new session bound to {@code context}, an event-loop context. */
  public McpSession create(String sessionId, Context context, MessageSink defaultSink, Principal principal) {
    SessionEngine session = new SessionEngine(this, Objects.requireNonNull(sessionId, "sessionId"), context,
        Objects.requireNonNull(defaultSink, "defaultSink"), principal);
    McpObserver observer = observers.get();
    if (observer != null) {
      observer.sessionStarted(false);
    }
    return session;
  }

  /** A session rebuilt from its stored record, bound to {@code context}, an event-loop context. */
  public McpSession restore(SessionRecord record, Context context, MessageSink defaultSink) {
    Principal principal = record.principal() == null ? null : Principal.fromJson(record.principal());
    SessionEngine session = new SessionEngine(this, record.sessionId(), context,
        Objects.requireNonNull(defaultSink, "defaultSink"), principal);
    session.restore(record);
    McpObserver observer = observers.get();
    if (observer != null) {
      observer.sessionStarted(true);
    }
    return session;
  }

  /** The server's observer, or null when none is installed. */
  McpObserver observer() {
    return observers.get();
  }

  Vertx vertx() {
    return vertx;
  }

  McpServerOptions options() {
    return options;
  }

  FeatureRegistry registry() {
    return registry;
  }

  FeatureDispatcher features() {
    return features;
  }

  Capabilities capabilities() {
    return capabilities;
  }

  BlockingRunner blockingRunner() {
    return blockingRunner;
  }

  SessionTasks tasks() {
    return tasks;
  }

  void rootsChanged(McpSession session) {
    Handler<McpSession> handler = rootsChanged.get();
    if (handler != null) {
      handler.handle(session);
    }
  }
}
