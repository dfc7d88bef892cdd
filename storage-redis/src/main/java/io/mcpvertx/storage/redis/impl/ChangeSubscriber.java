package io.mcpvertx.storage.redis.impl;

import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskStore;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The task store's one subscription to its changes channel, on a connection of its own, shared by all its
 * listeners.
 *
 * <p>vertx-redis-client does not re-establish a subscriber connection that dropped, so this does: when the
 * connection ends, fails, or stops answering the periodic PING, it is closed and, after a pause, a new one
 * subscribes again. Announcements published meanwhile are lost, so after every re-subscription each listener
 * gets {@link TaskChange#resync()} and re-reads what it waits for. The subscription is kept while there are
 * listeners; with none left it lapses at the next failure.
 *
 * <p>The connection state is confined to {@code context}; listeners are called on their own contexts.
 */
final class ChangeSubscriber {

  private final Context context;
  private final Redis redis;
  private final String channel;
  private final Bounded bounded;
  private final long reconnectDelayMs;
  private final long pingIntervalMs;
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();

  // Confined to context.
  private final List<Promise<Void>> waiting = new ArrayList<>();
  private RedisConnection connection;
  private boolean connecting;
  private boolean subscribed;
  private boolean everSubscribed;
  private boolean closed;
  private long reconnectTimer = -1;
  private long pingTimer = -1;

  private static final class Listener implements TaskStore.Registration {
    final Context context;
    final Handler<TaskChange> handler;
    final List<Listener> owner;
    volatile boolean active = true;

    Listener(Context context, Handler<TaskChange> handler, List<Listener> owner) {
      this.context = context;
      this.handler = handler;
      this.owner = owner;
    }

    void deliver(TaskChange change) {
      context.runOnContext(v -> {
        if (active) {
          handler.handle(change);
        }
      });
    }

    @Override
    public Future<Void> unregister() {
      active = false;
      owner.remove(this);
      return Future.succeededFuture();
    }
  }

  ChangeSubscriber(Context context, Redis redis, String channel, Bounded bounded, long reconnectDelayMs,
      long pingIntervalMs) {
    this.context = context;
    this.redis = redis;
    this.channel = channel;
    this.bounded = bounded;
    this.reconnectDelayMs = reconnectDelayMs;
    this.pingIntervalMs = pingIntervalMs;
  }

  /**
   * Registers a listener called on {@code caller}; succeeds once the subscription is up, so no announcement made
   * after that is missed. Fails as unavailable when it cannot be set up in time, and the listener is dropped.
   */
  Future<TaskStore.Registration> listen(Context caller, Handler<TaskChange> handler) {
    Listener listener = new Listener(caller, handler, listeners);
    Promise<Void> ready = Promise.promise();
    context.runOnContext(v -> {
      if (closed) {
        ready.fail(bounded.unavailable("the store is closed"));
        return;
      }
      listeners.add(listener);
      if (subscribed) {
        ready.complete();
      } else {
        waiting.add(ready);
        connect();
      }
    });
    Promise<TaskStore.Registration> registered = Promise.promise();
    bounded.call(ready.future()).onComplete(outcome -> {
      if (outcome.failed()) {
        listener.unregister();
      }
      caller.runOnContext(v -> {
        if (outcome.succeeded()) {
          registered.complete(listener);
        } else {
          registered.fail(outcome.cause());
        }
      });
    });
    return registered.future();
  }

  Future<Void> close() {
    Promise<Void> closing = Promise.promise();
    context.runOnContext(v -> {
      closed = true;
      cancelTimers();
      failWaiting(bounded.unavailable("the store is closed"));
      listeners.forEach(Listener::unregister);
      RedisConnection current = connection;
      connection = null;
      subscribed = false;
      (current == null ? Future.<Void>succeededFuture() : current.close()).onComplete(ar -> closing.complete());
    });
    return closing.future();
  }

  /** Connects now, unless connected or connecting: a listener waiting for a pending reconnect need not wait. */
  private void connect() {
    if (closed || connecting || connection != null) {
      return;
    }
    if (reconnectTimer >= 0) {
      context.owner().cancelTimer(reconnectTimer);
      reconnectTimer = -1;
    }
    connecting = true;
    bounded.call(redis.connect()).onComplete(outcome -> onContext(() -> {
      connecting = false;
      if (outcome.failed()) {
        failWaiting(outcome.cause());
        scheduleReconnect();
      } else if (closed) {
        outcome.result().close();
      } else {
        subscribe(outcome.result());
      }
    }));
  }

  private void subscribe(RedisConnection conn) {
    connection = conn;
    // The pool may hand out a connection made on another context: its callbacks hop to ours.
    conn.handler(message -> onContext(() -> received(message)));
    conn.endHandler(v -> onContext(() -> dropped(conn, "connection closed")));
    conn.exceptionHandler(e -> onContext(() -> dropped(conn, String.valueOf(e.getMessage()))));
    // SUBSCRIBE completes once sent; the server's confirmation arrives as a message (see received).
    conn.send(Request.cmd(Command.SUBSCRIBE).arg(channel))
        .onFailure(e -> onContext(() -> dropped(conn, String.valueOf(e.getMessage()))));
    context.owner().setTimer(bounded.timeoutMs(), id -> {
      if (connection == conn && !subscribed) {
        dropped(conn, "no subscription confirmed within " + bounded.timeoutMs() + " ms");
      }
    });
  }

  private void received(Response message) {
    if (!isArray(message) || message.size() < 2) {
      return;
    }
    String kind = message.get(0).toString().toLowerCase(Locale.ROOT);
    if ("subscribe".equals(kind) && channel.equals(message.get(1).toString())) {
      subscribed = true;
      pingTimer = context.owner().setPeriodic(pingIntervalMs, id -> ping());
      List<Promise<Void>> ready = new ArrayList<>(waiting);
      waiting.clear();
      ready.forEach(Promise::tryComplete);
      if (everSubscribed) {
        listeners.forEach(listener -> listener.deliver(TaskChange.resync()));
      }
      everSubscribed = true;
    } else if ("message".equals(kind) && message.size() >= 3) {
      TaskChange change = TaskCodec.change(message.get(2).toString());
      if (change != null) {
        listeners.forEach(listener -> listener.deliver(change));
      }
    }
  }

  /** A connection that no longer answers is as good as closed. */
  private void ping() {
    RedisConnection conn = connection;
    if (conn == null) {
      return;
    }
    conn.send(Request.cmd(Command.PING)).timeout(bounded.timeoutMs(), TimeUnit.MILLISECONDS)
        .onComplete(outcome -> onContext(() -> {
          if (outcome.failed()) {
            dropped(conn, "no answer to PING");
          } else if (isArray(outcome.result()) && outcome.result().size() >= 3) {
            // Over RESP2 a message that arrives while a PING is pending is taken for its reply: deliver it.
            received(outcome.result());
          }
        }));
  }

  private void onContext(Runnable action) {
    if (Vertx.currentContext() == context) {
      action.run();
    } else {
      context.runOnContext(v -> action.run());
    }
  }

  /** Pub/sub messages are pushes over RESP3 and arrays over RESP2; a PING's reply is neither. */
  private static boolean isArray(Response response) {
    return response != null && (response.type() == ResponseType.PUSH || response.type() == ResponseType.MULTI);
  }

  private void dropped(RedisConnection conn, String why) {
    if (conn != connection) {
      return;
    }
    connection = null;
    subscribed = false;
    if (pingTimer >= 0) {
      context.owner().cancelTimer(pingTimer);
      pingTimer = -1;
    }
    conn.close();
    failWaiting(bounded.unavailable("subscription lost: " + why));
    scheduleReconnect();
  }

  private void scheduleReconnect() {
    if (closed || listeners.isEmpty() || reconnectTimer >= 0) {
      return;
    }
    reconnectTimer = context.owner().setTimer(reconnectDelayMs, id -> {
      reconnectTimer = -1;
      connect();
    });
  }

  private void failWaiting(Throwable cause) {
    List<Promise<Void>> failed = new ArrayList<>(waiting);
    waiting.clear();
    failed.forEach(promise -> promise.tryFail(cause));
  }

  private void cancelTimers() {
    if (reconnectTimer >= 0) {
      context.owner().cancelTimer(reconnectTimer);
    }
    if (pingTimer >= 0) {
      context.owner().cancelTimer(pingTimer);
    }
    reconnectTimer = -1;
    pingTimer = -1;
  }
}
