package io.mcpvertx.verticles.http.impl.session;

import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.spi.EventStore;
import io.mcpvertx.verticles.bus.SessionBatch;
import io.mcpvertx.verticles.impl.SessionVerticle;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Publishes what sessions emit: every event is appended to the session's stream in the event store, then
 * published on the stream's live address to a client following it (on whichever verticle, or node, holds that
 * GET). Thread-safe.
 */
public final class SessionEvents {

  private final Vertx vertx;
  private final EventStore events;
  private final JsonRpcCodec codec;
  /** Whether other instances may serve these sessions: their events are then left to the store's expiry. */
  private final boolean shared;
  private final FollowedStreams followed;

  SessionEvents(Vertx vertx, EventStore events, JsonRpcCodec codec, boolean shared) {
    this.vertx = vertx;
    this.events = events;
    this.codec = codec;
    this.shared = shared;
    this.followed = FollowedStreams.of(vertx);
  }

  /**
   * A GET follows {@code liveAddress} from now on; told before it reads the stream's replay, and paired with
   * {@link #stoppedFollowing}.
   */
  public void following(String liveAddress) {
    followed.follow(liveAddress);
  }

  public void stoppedFollowing(String liveAddress) {
    followed.unfollow(liveAddress);
  }

  /** Appends an event to a stream and publishes it to a client resuming that stream, if any. */
  public Future<String> publish(HttpSession session, String streamId, Buffer data) {
    if (session.state() == HttpSession.State.CLOSED) {
      return Future.failedFuture(new IllegalStateException("session closed"));
    }
    return events.append(session.id(), streamId, data).onSuccess(id -> {
      if (!closedMeanwhile(session) && followedAnywhere(session, streamId)) {
        publishLive(session, streamId, id, data);
      }
    });
  }

  /**
   * Whether the session closed while its events were being appended. Closing may have removed the session's events
   * before that append, which stored them again; the state is set before that removal, so removing again here
   * leaves nothing. Shared events are left to the store's expiry: another instance may be serving the session.
   */
  private boolean closedMeanwhile(HttpSession session) {
    if (!session.isClosed()) {
      return false;
    }
    if (!shared) {
      events.removeSession(session.id());
    }
    return true;
  }

  /**
   * Published, not sent: a GET the client dropped may still be registered for a moment after a resuming GET
   * registered, and a point-to-point send could pick the dead one, losing the event for the live reader.
   */
  private void publishLive(HttpSession session, String streamId, String id, Buffer data) {
    vertx.eventBus().publish(session.liveAddress(streamId), new JsonObject().put("id", id)
        .put("data", data.toString()));
  }

  private void publishComplete(HttpSession session, String streamId) {
    vertx.eventBus().publish(session.liveAddress(streamId), new JsonObject().put("complete", true));
  }

  /**
   * Appends a stream's last events and completes it in one store operation, yielding their ids in order; as
   * {@link #publish} for each and then {@link #completeStream}. When it fails the stream is still completed, as
   * it would be after a failed publish.
   */
  public Future<List<String>> publishLast(HttpSession session, String streamId, List<Buffer> data) {
    if (session.state() == HttpSession.State.CLOSED) {
      completeStream(session, streamId);
      return Future.failedFuture(new IllegalStateException("session closed"));
    }
    Future<List<String>> stored = events.appendAndComplete(session.id(), streamId, data);
    if (stored.isComplete()) {
      // An in-memory store answers at once: no listener, and no second future, for nearly every POST stream.
      lastStored(session, streamId, data, stored);
      return stored;
    }
    return stored.andThen(ar -> lastStored(session, streamId, data, ar));
  }

  private void lastStored(HttpSession session, String streamId, List<Buffer> data, AsyncResult<List<String>> ar) {
    if (ar.failed()) {
      completeStream(session, streamId);
      return;
    }
    if (!closedMeanwhile(session) && followedAnywhere(session, streamId)) {
      List<String> ids = ar.result();
      for (int i = 0; i < ids.size(); i++) {
        publishLive(session, streamId, ids.get(i), data.get(i));
      }
      publishComplete(session, streamId);
    }
  }

  /** Tells a client resuming {@code streamId} that nothing more will come. */
  public void completeStream(HttpSession session, String streamId) {
    events.complete(session.id(), streamId).onComplete(ar -> {
      if (followedAnywhere(session, streamId)) {
        publishComplete(session, streamId);
      }
    });
  }

  /**
   * Whether a GET may be following the stream live. Without a cluster every GET of the session is in this JVM and
   * says so ({@link #following}) before it reads the replay: an event stored before that is in the replay, one
   * stored after it finds the follower, so publishing only to followed streams loses nothing. It spares an event-bus publish
   * (and a copy of the event) for every event no one follows, which is nearly all of them: a POST's client reads
   * its answer on the POST. Clustered, the GET may be on another node, so every event is published.
   */
  private boolean followedAnywhere(HttpSession session, String streamId) {
    return vertx.isClustered() || !followed.isEmpty() && followed.isFollowed(session.liveAddress(streamId));
  }

  /**
   * The answer to a request whose serving instance stopped before answering: nothing else will answer it, but the
   * client may send it again (the session moves to another instance on its next request).
   */
  public static JsonRpcErrorResponse ownerLostError(JsonRpcId id) {
    return new JsonRpcErrorResponse(id, new JsonRpcError(JsonRpcErrorCodes.INTERNAL_ERROR,
        SessionVerticle.STOPPED_MESSAGE));
  }

  /** Stores a message of no request on the session's standalone stream and hands it to a live GET stream. */
  void unsolicited(HttpSession session, Object body) {
    Buffer data;
    if (body instanceof JsonRpcMessage message) {
      data = codec.encode(message);
    } else if (body instanceof SessionBatch batch) {
      data = codec.encodeBatch(batch.messages());
    } else {
      return;
    }
    publish(session, HttpSession.STANDALONE_STREAM, data);
  }
}
