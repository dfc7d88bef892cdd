package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.UnknownEventException;
import io.mcpvertx.verticles.http.impl.session.HttpSession;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A GET on the endpoint: either the session's standalone stream (server-initiated messages), or a resumption of
 * any of its streams after {@code Last-Event-ID}.
 *
 * <p>Live events are followed on the stream's event-bus address, so the stream may be produced by another HTTP
 * verticle (or, clustered, another node). The consumer is registered before the replay is read and events it
 * receives meanwhile are held back, then delivered unless the replay had them, as is any later live copy of a
 * replayed event: nothing is lost or doubled.
 *
 * <p>Confined to the context of the HTTP verticle that received the GET.
 */
final class GetStream {

  private final HttpEndpoint endpoint;
  private final HttpSession session;
  private final String streamId;
  private final SseWriter sse;
  private final Consumer<GetStream> onDone;
  private MessageConsumer<JsonObject> live;
  private String liveAddress;
  private List<JsonObject> held = new ArrayList<>();
  private long heldBytes;
  /**
   * Ids the replay delivered whose live copy has not come yet: a copy is skipped, during the replay or after it (an
   * event is stored before it is published, so the replay can hold an event whose copy is still on its way). At
   * most the replay's length, and each id goes once its copy came.
   */
  private Set<String> replayed = Set.of();
  private boolean done;
  private long orphanCheck = -1;

  private GetStream(HttpEndpoint endpoint, HttpSession session, String streamId, HttpServerResponse response,
      Consumer<GetStream> onDone) {
    this.endpoint = endpoint;
    this.session = session;
    this.streamId = streamId;
    this.sse = new SseWriter(response, endpoint.options.getMaxStreamQueueBytes(), endpoint.observer);
    this.onDone = onDone;
    response.closeHandler(v -> end());
  }

  /** Opens the session's standalone stream. The caller has claimed it ({@link HttpSession#follow}). */
  static GetStream standalone(HttpEndpoint endpoint, HttpSession session, HttpServerResponse response,
      Consumer<GetStream> onDone) {
    GetStream stream = new GetStream(endpoint, session, HttpSession.STANDALONE_STREAM, response, onDone);
    stream.follow().onSuccess(v -> {
      stream.sse.start();
      ProtocolVersion version = session.version();
      if (version != null && version.supports(ProtocolFeature.SSE_PRIMING)) {
        endpoint.streams.publish(session, HttpSession.STANDALONE_STREAM, Buffer.buffer())
            .onSuccess(id -> stream.sse.priming(id));
      }
      stream.release();
    });
    return stream;
  }

  /**
   * Resumes a stream after {@code lastEventId}, which the caller has claimed ({@link HttpSession#follow}):
   * replays what followed, then goes on live unless the stream is complete. Fails with
   * {@link UnknownEventException} (nothing written yet) when the id cannot be resumed.
   */
  static Future<GetStream> resume(HttpEndpoint endpoint, HttpSession session, String streamId, String lastEventId,
      HttpServerResponse response, Consumer<GetStream> onDone) {
    GetStream stream = new GetStream(endpoint, session, streamId, response, onDone);
    return stream.follow()
        .compose(v -> endpoint.events.replayAfter(session.id(), lastEventId))
        .compose(replay -> {
          stream.sse.start();
          stream.replayed = new HashSet<>();
          stream.replay(replay.events(), 0, replay.complete());
          return Future.succeededFuture(stream);
        }, failure -> {
          stream.stopFollowing();
          return Future.failedFuture(failure);
        });
  }

  void heartbeat() {
    if (!done && sse.isOpen()) {
      sse.heartbeat();
      endpoint.sessions.used(session);
    }
  }

  /** Ends the stream (client gone, session closed, or the stream completed). Idempotent. */
  void end() {
    end(-1);
  }

  /**
   * Ends the connection with a {@code retry} of {@code retryMs} (the server is stopping): the client comes back
   * with {@code Last-Event-ID}, through the load balancer, to an instance that goes on with the stream.
   */
  void handOver(long retryMs) {
    end(retryMs);
  }

  private void end(long retryMs) {
    if (done) {
      return;
    }
    done = true;
    if (orphanCheck >= 0) {
      endpoint.vertx.cancelTimer(orphanCheck);
    }
    // Let go of the stream's address before the client can see the end: once it has, nothing may follow it.
    stopFollowing();
    session.unfollow(streamId);
    if (retryMs >= 0) {
      sse.endWithRetry(retryMs);
    } else {
      sse.end();
    }
    onDone.accept(this);
  }

  private Future<Void> follow() {
    liveAddress = session.liveAddress(streamId);
    // Before the replay is read: from here on every event of the stream is published, not only stored.
    endpoint.streams.following(liveAddress);
    live = endpoint.vertx.eventBus().consumer(liveAddress, this::onLive);
    return live.completion();
  }

  private void stopFollowing() {
    if (live != null) {
      live.unregister();
      live = null;
      endpoint.streams.stoppedFollowing(liveAddress);
    }
  }

  /**
   * Writes the replay from {@code from} on, as fast as the client reads it: a backlog (say, after the client was
   * dropped for reading too slowly) must not trip the same limit again. Then the stream ends or goes live.
   */
  private void replay(List<EventStore.StoredEvent> events, int from, boolean complete) {
    for (int i = from; i < events.size() && !done; i++) {
      EventStore.StoredEvent event = events.get(i);
      replayed.add(event.id());
      if (event.data().length() > 0) {
        sse.replayEvent(event.id(), event.data());
      }
      if (sse.isFull()) {
        int next = i + 1;
        sse.drainHandler(v -> replay(events, next, complete));
        return;
      }
    }
    if (done) {
      return;
    }
    sse.drainHandler(null);
    if (complete) {
      end();
    } else {
      release();
      endpoint.producers.settleIfOrphaned(session, streamId);
      long interval = endpoint.producers.checkIntervalMs(streamId);
      if (interval > 0 && !done) {
        // Its producer may die while the client follows it here: look again as often as leases are renewed.
        orphanCheck = endpoint.vertx.setPeriodic(interval,
            t -> endpoint.producers.settleIfOrphaned(session, streamId));
      }
    }
  }

  private void onLive(Message<JsonObject> message) {
    if (held != null) {
      // Live events wait for the replay; a reader that stalls during it must not make them pile up.
      held.add(message.body());
      heldBytes += message.body().getString("data", "").length();
      if (heldBytes > endpoint.options.getMaxStreamQueueBytes()) {
        sse.drop();
        end();
      }
    } else {
      deliver(message.body());
    }
  }

  /** Delivers what arrived during the replay, then everything as it comes. */
  private void release() {
    List<JsonObject> pending = held;
    held = null;
    pending.forEach(this::deliver);
  }

  private void deliver(JsonObject event) {
    if (done) {
      return;
    }
    if (event.getBoolean("complete", false)) {
      end();
      return;
    }
    String id = event.getString("id");
    if (replayed.isEmpty() || !replayed.remove(id)) {
      write(id, Buffer.buffer(event.getString("data", "")));
    }
  }

  private void write(String id, Buffer data) {
    if (data.length() == 0) {
      return; // a priming event: the client needs no copy of it
    }
    sse.event(id, data);
    if (!sse.isOpen()) {
      end();
    }
  }
}
