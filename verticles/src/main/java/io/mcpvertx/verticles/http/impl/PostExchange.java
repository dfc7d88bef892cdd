package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.verticles.http.ResponseMode;
import io.mcpvertx.verticles.http.impl.session.HttpSession;
import io.mcpvertx.verticles.http.impl.session.SessionEvents;
import io.mcpvertx.verticles.http.impl.HttpErrors.Refusal;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One POST that carries requests, from the moment it is handed to the session until its last response.
 *
 * <p>The fast path: when the response is the first thing the session sends, it is written as
 * {@code application/json} and nothing is stored. Otherwise the exchange becomes an SSE stream whose every event
 * is appended to the event store before it is written, so a client that loses the connection (or is dropped for
 * reading too slowly) resumes with {@code Last-Event-ID} and gets the rest, the final response included. A
 * dropped connection is not a cancellation: the request runs on.
 *
 * <p>Confined to the context of the HTTP verticle that received the POST.
 */
final class PostExchange {

  private final HttpEndpoint endpoint;
  /** The HTTP verticle's context, which this exchange is confined to. */
  private final Context context;
  /** Changes only when the session moved while a request was held for it ({@link #moveTo}). */
  private HttpSession session;
  private final HttpServerResponse response;
  private final ResponseMode mode;
  private final List<JsonRpcId> requestIds;
  /** The ids still waiting for a response; a list, as a POST carries one request but for a batch. */
  private final List<JsonRpcId> awaiting;
  private final boolean batch;
  private final boolean initialize;
  /** Told once when the exchange is over. */
  private final Consumer<PostExchange> onDone;
  /** The exchange's stream in the event store; made when first needed, as a JSON answer needs none. */
  private String streamId;
  private SseWriter sse;
  /**
   * The stream has a priming event that is neither stored nor written yet. It is stored only when it is about to
   * go out, because until then no client can hold its id: when the answer comes before the stream is uncorked,
   * priming event, answer and completion are stored in one operation.
   */
  private boolean primingDue;
  private boolean detached;
  private boolean done;
  /** Whether the request is with its session: from then on a new stream is uncorked on the next turn. */
  private boolean handedOff;
  /**
   * The session runs on this loop and says when its turn with the request is over ({@link #turnEnded()}): until
   * then a new stream stays corked, and no turn of the loop need be queued to uncork it.
   */
  private boolean turnPending;
  private Future<?> tail = Future.succeededFuture();
  /** Links of the verticle's {@link OpenExchanges}. */
  PostExchange previous;
  PostExchange next;
  boolean listed;

  PostExchange(HttpEndpoint endpoint, Context context, HttpSession session, HttpServerResponse response, ResponseMode mode,
      List<JsonRpcId> requestIds, boolean batch, boolean initialize, Consumer<PostExchange> onDone) {
    this.endpoint = endpoint;
    this.context = context;
    this.session = session;
    this.response = response;
    this.mode = mode;
    this.requestIds = requestIds;
    this.awaiting = new ArrayList<>(requestIds);
    this.batch = batch;
    this.initialize = initialize;
    this.onDone = onDone;
    response.closeHandler(v -> detached = true);
    if (mode == ResponseMode.SSE) {
      startSse();
    }
  }

  HttpSession session() {
    return session;
  }

  /** Whether the exchange is an SSE stream already (as every one is in {@link ResponseMode#SSE}). */
  boolean isStream() {
    return sse != null;
  }

  /** Whether the exchange is over: answered, or ended with its session. */
  boolean isDone() {
    return done;
  }

  /**
   * The session moved to another instance (or here) before any of it took this exchange's message: what comes from
   * now on belongs to {@code moved}, the same session where it runs now.
   */
  void moveTo(HttpSession moved) {
    this.session = moved;
  }

  /** The id of this exchange's stream in the event store (and of its route over the event bus). */
  String streamId() {
    if (streamId == null) {
      streamId = endpoint.producers.postStreamId(requestIds, batch);
    }
    return streamId;
  }

  void deliver(JsonRpcMessage message) {
    if (done) {
      return;
    }
    JsonRpcId id = message instanceof JsonRpcResponse r ? r.id()
        : message instanceof JsonRpcErrorResponse e ? e.id() : null;
    boolean isFinal = !batch && id != null && awaiting.remove(id);
    if (isFinal && initialize) {
      onInitializeAnswered(message);
    }
    boolean last = isFinal && awaiting.isEmpty();
    if (sse == null && !detached) {
      if (last && mode != ResponseMode.SSE) {
        writeJson(endpoint.codec.encode(message));
        return;
      }
      if (!isFinal && mode == ResponseMode.JSON) {
        // A JSON response cannot carry it: it belongs on the session's GET stream.
        endpoint.vertx.eventBus().send(session.mailboxAddress(), message);
        return;
      }
      startSse();
    }
    if (last) {
      finish(endpoint.codec.encode(message));
    } else {
      emit(endpoint.codec.encode(message));
    }
  }

  void deliverBatch(List<JsonRpcMessage> responses) {
    if (done) {
      return;
    }
    Buffer data = endpoint.codec.encodeBatch(responses);
    if (sse == null && !detached && mode != ResponseMode.SSE) {
      writeJson(data);
      return;
    }
    if (sse == null && !detached) {
      startSse();
    }
    finish(data);
  }

  /** Whether the exchange can become an SSE stream a client resumes: not a batch, and SSE allowed. */
  boolean resumable() {
    return !batch && mode != ResponseMode.JSON;
  }

  /**
   * A handler asked to close the connection and let the client resume (SEP-1699): the exchange becomes an SSE
   * stream if it is not one yet, and once its priming event (and whatever was sent before) is written, the
   * connection ends with a {@code retry} of {@code retryMs}. What comes later is stored for the client's
   * {@code GET} with {@code Last-Event-ID}, wherever it lands. Only for revisions with priming events.
   */
  void closeConnection(long retryMs) {
    ProtocolVersion version = session.version();
    if (done || detached || !resumable() || version == null
        || !version.supports(ProtocolFeature.SSE_PRIMING)) {
      return;
    }
    if (sse == null) {
      startSse();
    }
    prime();
    tail = tail.onSuccess(v -> {
      if (!detached && sse.isOpen()) {
        sse.endWithRetry(retryMs);
        detached = true;
      }
    });
  }

  /** The request ended without a response (cancelled, or the session closed). */
  void abandoned(JsonRpcId id) {
    if (!done && id != null && awaiting.remove(id) && awaiting.isEmpty()) {
      if (sse == null && !detached) {
        response.setStatusCode(202).end();
        done = true;
        onDone.accept(this);
      } else {
        prime(); // a client given its id may resume, and finds the stream complete
        finish(null);
      }
    }
  }

  /** The session was closed under this exchange. */
  void sessionClosed() {
    if (done) {
      return;
    }
    if (session.state() == HttpSession.State.OWNER_LOST && !awaiting.isEmpty()) {
      answerOwnerLost();
      return;
    }
    done = true;
    if (sse == null && !detached) {
      HttpErrors.reject(response, Refusal.SESSION_NOT_FOUND, "Session terminated");
    } else if (sse != null) {
      sse.end();
    }
    onDone.accept(this);
  }

  /**
   * The instance serving the requests stopped, or none could be found in time: nothing will answer them, but the
   * client may send them again (the session moves to another instance on its next request). An answer, not a cut,
   * so no client waits forever.
   */
  void answerOwnerLost() {
    List<JsonRpcMessage> errors = new ArrayList<>();
    for (JsonRpcId id : awaiting) {
      errors.add(SessionEvents.ownerLostError(id));
    }
    if (batch) {
      deliverBatch(errors);
    } else {
      errors.forEach(this::deliver);
    }
  }

  /** Keeps proxies from cutting a quiet stream, and keeps its session from expiring while it is in use. */
  void heartbeat() {
    if (sse != null && sse.isOpen()) {
      sse.heartbeat();
      endpoint.sessions.used(session);
    }
  }

  private void onInitializeAnswered(JsonRpcMessage message) {
    if (message instanceof JsonRpcResponse r) {
      session.version(ProtocolVersion.fromId(r.result().getString("protocolVersion")).orElse(null));
    } else {
      // A failed initialize leaves no session behind, so it must not hand out the session's id either.
      endpoint.sessions.close(session, "initialize failed");
      if (!response.headWritten()) {
        response.headers().remove(McpHeaders.SESSION_ID);
      }
    }
  }

  /**
   * The request is with its session. A stream still corked (see {@link #startSse()}) goes out on a later turn of
   * the loop, after the session's task: if the session answered at once, the whole stream was written in one go
   * by then; if not, the head and priming event go now, so the client can resume.
   */
  void handedOff() {
    handedOff = true;
    if (sse != null) {
      uncorkSoon();
    }
  }

  /**
   * As {@link #handedOff()}, to a session on this loop that calls {@link #turnEnded()} once it handled the
   * request: a stream the turn left corked goes out then, with no turn of the loop queued for it.
   */
  void handedOffHere() {
    handedOff = true;
    turnPending = true;
  }

  /** The session's turn with the request is over (see {@link #handedOffHere()}). */
  void turnEnded() {
    turnPending = false;
    if (sse != null && !done) {
      uncork();
    }
  }

  /** Uncorks the stream on the next turn of the loop, after what is queued now (the session's task among it). */
  private void uncorkSoon() {
    context.runOnContext(v -> uncork());
  }

  /** Lets the stream's head, its priming event and what waits behind them go out. */
  private void uncork() {
    prime();
    sse.uncork();
  }

  private void startSse() {
    sse = new SseWriter(response, endpoint.options.getMaxStreamQueueBytes(), endpoint.observer);
    // Corked: what the stream carries before the next turn of the loop (head, priming event, often the answer and
    // the end) leaves in one write. The end of the session's turn uncorks it (handedOff(), turnEnded()).
    sse.startCorked();
    if (handedOff && !turnPending) {
      uncorkSoon();
    }
    ProtocolVersion version = session.version();
    if (version != null && version.supports(ProtocolFeature.SSE_PRIMING)) {
      primingDue = true;
      if (endpoint.options.isSsePolling()) {
        prime();
      }
    }
  }

  /** Stores the priming event that is due, and writes it; before anything else of the stream goes out. */
  private void prime() {
    if (!primingDue) {
      return;
    }
    primingDue = false;
    tail = tail.compose(v -> endpoint.streams.publish(session, streamId(), Buffer.buffer())).onSuccess(eventId -> {
      if (!detached) {
        sse.priming(eventId);
        polled();
      }
    });
  }

  private void polled() {
    if (endpoint.options.isSsePolling()) {
      // Polling: the client comes back with Last-Event-ID for the rest; the connection is freed meanwhile.
      sse.endWithRetry(endpoint.options.getSseRetryMs());
      detached = true;
    }
  }

  private void emit(Buffer data) {
    prime();
    tail = tail.compose(v -> endpoint.streams.publish(session, streamId(), data)).onSuccess(eventId -> {
      if (!detached && sse != null && sse.isOpen()) {
        sse.event(eventId, data);
      }
    });
  }

  private void writeJson(Buffer data) {
    done = true;
    response.putHeader(HttpHeaders.CONTENT_TYPE, McpHeaders.APPLICATION_JSON).end(data);
    onDone.accept(this);
  }

  /**
   * Ends the exchange: stores its last event, if any, with the priming event still due, completes the stream, and
   * writes what is left and the end of the stream in one write.
   */
  private void finish(Buffer data) {
    done = true;
    if (sse != null) {
      sse.cork();
    }
    if (data == null) {
      tail = tail.andThen(v -> endpoint.streams.completeStream(session, streamId()));
    } else {
      boolean priming = primingDue;
      primingDue = false;
      List<Buffer> events = priming ? List.of(Buffer.buffer(), data) : List.of(data);
      // Completed even when what came before failed to be stored, as the client's replay must end.
      Future<List<String>> stored = tail.succeeded()
          ? endpoint.streams.publishLast(session, streamId(), events)
          : tail.compose(v -> endpoint.streams.publishLast(session, streamId(), events), failed -> {
            endpoint.streams.completeStream(session, streamId());
            return Future.failedFuture(failed);
          });
      if (stored.isComplete()) {
        // Stored at once (an in-memory store, nothing queued before it): written and ended now, with no listener
        // and no future of our own, as most POST streams end.
        if (stored.succeeded()) {
          writeLast(stored.result(), priming, data);
        }
        ended();
        return;
      }
      tail = stored.onSuccess(ids -> writeLast(ids, priming, data));
    }
    tail.onComplete(v -> ended());
  }

  /** The last event (after the priming event, if it was still due), under the ids the store gave them. */
  private void writeLast(List<String> ids, boolean priming, Buffer data) {
    if (!detached && sse != null) {
      if (priming) {
        sse.primedEvent(ids.get(0), ids.get(1), data);
      } else {
        sse.event(ids.get(0), data);
      }
    }
  }

  private void ended() {
    if (sse != null) {
      sse.end();
    }
    onDone.accept(this);
  }
}
