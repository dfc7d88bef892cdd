package io.mcpvertx.verticles.impl;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpSession;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.tracing.McpTracer;
import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.spi.sessions.SessionStore;
import io.mcpvertx.verticles.bus.McpEventBus;
import io.mcpvertx.verticles.bus.SessionBatch;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.Objects;
import java.util.function.Function;

/**
 * What {@code McpSessionVerticle} runs, with the hooks a transport needs to share sessions
 * between instances: one MCP session as a verticle, owning the session's state on its own event loop and speaking
 * JSON-RPC over the event bus only.
 *
 * <p>Inbound: {@link JsonRpcMessage}s and {@link SessionBatch}es at {@link McpEventBus#sessionAddress}. Each
 * carries a {@link McpEventBus#REPLY_TO} header (where the response and everything emitted while serving it go)
 * and optionally {@link McpEventBus#STREAM}, copied onto those outbound messages. Messages that belong to no
 * request (list changes, resource updates) go to the default outbound address with
 * {@link McpEventBus#UNSOLICITED} set.
 *
 * <p>Undeploying the verticle closes the session: in-flight handlers see a cancellation.
 *
 * <p>A session can be kept in a {@link SessionStore} so another instance may serve it:
 * {@link #onPersistentChange} hands every new {@link SessionRecord} to the code that stores it, and a verticle made
 * with {@link #restoring} takes a stored session over. While a record is being written, everything the session sends
 * waits, in order (its {@link SessionOutput}), so no client hears of a change (the answer to {@code initialize},
 * to {@code logging/setLevel}, to a subscription) before another instance can read it. A message sent with {@code request} (rather than
 * {@code send}) is acknowledged, with an empty reply, once it is handled and what it changed is stored.
 */
public final class SessionVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(SessionVerticle.class);

  /**
   * Header of an inbound message with no body that only says the session is in use (a client follows its stream on
   * another instance): it keeps the session from expiring where it runs.
   */
  public static final String TOUCH = "mcp-touch";

  /**
   * Header of an inbound request with no body asking the session to end (it was deleted through another
   * instance); answered once it is ended where it runs.
   */
  public static final String CLOSE = "mcp-close";

  /**
   * Header of an inbound request with no body naming a stream whose producer (the instance that held the client's
   * POST) died: the request still running for it here is cancelled, since its answer can no longer reach the
   * client, before the client is told to send it again. Answered once done, whether or not anything was cancelled.
   */
  public static final String PRODUCER_LOST = "mcp-producer-lost";

  /**
   * What a request still running when its session verticle stops is answered with (JSON-RPC -32603): the session
   * goes on elsewhere (or not at all), and only the client can tell whether the request is worth sending again.
   */
  public static final String STOPPED_MESSAGE =
      "The server instance serving this request stopped before answering; send the request again";

  private final McpServer server;
  private final String sessionId;
  private final String defaultOutbound;
  private final Principal principal;
  private final SessionRecord restored;
  private McpSession session;
  private MessageConsumer<Object> consumer;
  private RecordWrites writes;
  /** Where everything the session sends goes first; made at start. */
  private SessionOutput output;
  /** The event-loop thread of this verticle's context. */
  private Thread loop;
  private Runnable onActivity;
  private Runnable onCloseRequested;
  /** Set by {@link #stop}: requests abandoned from now on were cut by the stop, not cancelled by the client. */
  private volatile boolean stopping;
  /** Set once a graceful stop handed the session to another instance: messages from this JVM are ignored too. */
  private volatile boolean handedOver;
  private boolean answerOnStop;
  /**
   * The requests in progress that came over the bus with a stream (from another instance's POST): what
   * {@link #PRODUCER_LOST} cancels, and how a second delivery of one is recognised. Touched on this verticle's context
   * only.
   */
  private final StreamedRequests streamed = new StreamedRequests();
  /** The event loop this verticle must start on ({@link SessionPlacement}); null: any. */
  private volatile Thread wantedLoop;
  /** Started on another loop than the wanted one: an empty deployment, undeployed again by the placement. */
  private volatile boolean misplaced;

  /**
   * @param defaultOutbound where messages that belong to no request go
   * @param principal the session's owner, or null without authorization
   */
  public SessionVerticle(McpServer server, String sessionId, String defaultOutbound, Principal principal) {
    this(server, sessionId, defaultOutbound, principal, null);
  }

  private SessionVerticle(McpServer server, String sessionId, String defaultOutbound, Principal principal,
      SessionRecord restored) {
    this.server = Objects.requireNonNull(server, "server");
    this.sessionId = Objects.requireNonNull(sessionId, "sessionId");
    this.defaultOutbound = Objects.requireNonNull(defaultOutbound, "defaultOutbound");
    this.principal = principal;
    this.restored = restored;
  }

  /**
   * A verticle that takes over a stored session ({@link McpServer#restoreSession}) instead of starting a new one:
   * it serves requests at once, in the recorded state, owned by the recorded principal. Deploying it fails when the
   * record cannot be restored (a closed session, an unknown revision).
   */
  public static SessionVerticle restoring(McpServer server, SessionRecord record, String defaultOutbound) {
    Objects.requireNonNull(record, "record");
    return new SessionVerticle(server, record.sessionId(), defaultOutbound, null, record);
  }

  /**
   * Stores the session's record whenever it changes: {@code store} is called on this verticle's context with each
   * new record and yields when it is stored. Calls never overlap, and a record that changes during a write waits
   * for it (only the newest one is written next). A failed write is logged; the session goes on. Call it before
   * deploying.
   */
  public SessionVerticle onPersistentChange(Function<SessionRecord, Future<?>> store) {
    this.writes = new RecordWrites(Objects.requireNonNull(store, "store"));
    return this;
  }

  /**
   * Calls {@code activity} on this verticle's context for every inbound message, including bodiless
   * {@link #TOUCH} messages: whoever expires idle sessions learns of use that did not pass through it
   * (requests forwarded by another instance). It must be cheap. Call it before deploying.
   */
  public SessionVerticle onActivity(Runnable activity) {
    this.onActivity = Objects.requireNonNull(activity, "activity");
    return this;
  }

  /**
   * Calls {@code close} on this verticle's context when a bodiless {@link #CLOSE} request arrives, then
   * answers it: whoever holds the session ends it there (the session was deleted through another instance). Call
   * it before deploying; without it such requests are answered and ignored.
   */
  public SessionVerticle onCloseRequested(Runnable close) {
    this.onCloseRequested = Objects.requireNonNull(close, "close");
    return this;
  }

  /**
   * Requests still running when this verticle stops are answered with a -32603 {@link #STOPPED_MESSAGE} error
   * instead of ending unanswered: for transports whose clients can send them again elsewhere (an HTTP endpoint
   * sharing its sessions with other instances). Call it before deploying.
   */
  public SessionVerticle answerOnStop() {
    this.answerOnStop = true;
    return this;
  }

  /** The session this verticle runs; null before start. Use it only on this verticle's context. */
  public McpSession session() {
    return session;
  }

  /** Makes a start on another event loop than {@code thread}'s start nothing ({@link #misplaced}); null: any loop. */
  void placeOn(Thread thread) {
    this.wantedLoop = thread;
  }

  /** Whether the last start landed on another loop than the wanted one, and so started nothing. */
  boolean misplaced() {
    return misplaced;
  }

  @Override
  public Future<?> start() {
    Thread wanted = wantedLoop;
    misplaced = wanted != null && wanted != Thread.currentThread();
    if (misplaced) {
      // Succeed empty rather than fail: Vert.x 5.0 keeps a failed child deployment (and this verticle) in its
      // parent's children for good, while an undeployed one leaves; the placement undeploys this one at once.
      return Future.succeededFuture();
    }
    McpEventBus.registerCodecs(vertx);
    EventBus bus = vertx.eventBus();
    loop = Thread.currentThread();
    output = new SessionOutput(writes, context, loop, () -> stopping && answerOnStop);
    DeliveryOptions unsolicited = new DeliveryOptions().addHeader(McpEventBus.UNSOLICITED, "true");
    MessageSink sink = output.to(new BusSink(bus, defaultOutbound, unsolicited, false));
    try {
      session = restored != null ? server.restoreSession(restored, sink)
          : server.createSession(sessionId, sink, principal);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    if (output.storesRecords()) {
      session.onPersistentChange(changed -> output.changed(changed.snapshot()));
    }
    consumer = bus.consumer(McpEventBus.sessionAddress(sessionId), this::onMessage);
    return consumer.completion();
  }

  /** Whether this verticle runs on {@code thread}: a caller there reaches it with {@link #deliver} without a hop. */
  public boolean runsOn(Thread thread) {
    return loop == thread;
  }

  /**
   * Hands a message to the session from this JVM without the event bus, for a transport that holds the session's
   * verticle: it is queued on the verticle's context (an enqueue on the caller's own event loop when the verticle
   * runs there, so no thread hop) and everything it causes goes to {@code replies} (null: where messages that belong
   * to no request go), called on this verticle's context. With {@code handled} set, that is called (on this verticle's context) once the message is handled
   * and what it changed is stored, as a {@code request} over the bus is acknowledged.
   *
   * <p>Messages delivered from one thread are handled in the order delivered.
   */
  public void deliver(Object body, MessageSink replies, Runnable handled) {
    deliver(body, replies, handled, null);
  }

  /**
   * {@link #deliver(Object, MessageSink, Runnable)} for a message held while its session moved, first sent over
   * the bus for the exchange stream {@code stream}: that first delivery may have reached this verticle after all
   * (its acknowledgement did not reach the sender in time). A request of that stream still in progress here is that
   * same request, whose answers already go to the exchange: the second delivery is dropped, not refused as an id in
   * use.
   */
  public void redeliver(Object body, MessageSink replies, String stream) {
    deliver(body, replies, null, stream);
  }

  private void deliver(Object body, MessageSink replies, Runnable handled, String stream) {
    McpTracer tracer = server.tracer();
    if (tracer == McpTracer.NONE) {
      context.runOnContext(v -> delivered(body, replies, handled, stream));
    } else {
      // The caller's trace context (its HTTP request's) goes along to the session's context.
      Runnable traced = tracer.wrap(() -> delivered(body, replies, handled, stream));
      context.runOnContext(v -> traced.run());
    }
  }

  private void delivered(Object body, MessageSink replies, Runnable handled, String stream) {
    if (stopping || handedOver) {
      return; // as a message sent to the address of a verticle that is gone: the transport's close hooks answer
    }
    if (stream != null && streamed.isRunning(stream, body)) {
      return;
    }
    if (onActivity != null) {
      onActivity.run();
    }
    if (replies != null && body instanceof JsonRpcRequest request && streamed.adopt(null, request, replies)) {
      adopted(request);
      if (handled != null) {
        handled.run();
      }
      return;
    }
    handle(body, output.to(replies != null ? replies
        : new BusSink(vertx.eventBus(), defaultOutbound, new DeliveryOptions(), false)));
    if (handled != null) {
      output.acknowledge(handled);
    }
  }

  /**
   * Waits, up to {@code timeoutMs}, for the requests being served to finish; used before a graceful close so
   * answers already on their way are not lost.
   */
  public Future<Void> drain(long timeoutMs) {
    Promise<Void> drained = Promise.promise();
    context.runOnContext(v -> {
      // Vert.x timers need at least 1 ms; a timeout of 0 (allowed by StdioServerOptions) would throw here
      // and leave the returned future pending forever.
      long timer = vertx.setTimer(Math.max(1, timeoutMs), t -> drained.tryComplete());
      session.idle().onComplete(ar -> {
        vertx.cancelTimer(timer);
        drained.tryComplete();
      });
    });
    return drained.future();
  }

  /**
   * Stops taking the session's messages (another instance serves the session from now on) while the verticle, and
   * the task handlers running on its context, live on until it is undeployed.
   */
  public Future<Void> stopServing() {
    Promise<Void> stopped = Promise.promise();
    context.runOnContext(v -> {
      handedOver = true;
      consumer.unregister().onComplete(stopped);
    });
    return stopped.future();
  }

  /**
   * Ends the session here while the handlers of its tasks live on: the session closes at once (as when the verticle
   * is undeployed) and takes no more messages, but the verticle, whose context runs those handlers and their timers,
   * stays until they have ended ({@link McpSession#endTasks}, with {@code why}, {@code forGood} and
   * {@code taskTimeoutMs}). Undeploy it once the returned future completes; it never fails.
   */
  public Future<Void> retire(String why, boolean forGood, long taskTimeoutMs) {
    if (misplaced || session == null) {
      return Future.succeededFuture();
    }
    Promise<Void> retired = Promise.promise();
    context.runOnContext(v -> {
      stopping = true;
      consumer.unregister();
      session.close()
          .compose(closed -> session.endTasks(why, forGood, taskTimeoutMs))
          .onComplete(ar -> {
            if (ar.failed()) {
              LOG.warn("Session {}: ending its tasks failed: {}", sessionId, String.valueOf(ar.cause()));
            }
            retired.complete();
          });
    });
    return retired.future();
  }

  @Override
  public Future<?> stop() {
    if (misplaced) {
      return Future.succeededFuture();
    }
    stopping = true;
    return session.close().eventually(() -> consumer.unregister());
  }

  private void onMessage(Message<Object> message) {
    if (onActivity != null) {
      onActivity.run();
    }
    MultiMap headers = message.headers();
    if (headers.contains(TOUCH)) {
      return;
    }
    String lost = headers.get(PRODUCER_LOST);
    if (lost != null) {
      producerLost(lost);
      if (message.replyAddress() != null) {
        // After the cancellation, which the session may have queued on its context: the client is told to send
        // the request again only once its id is free.
        context.runOnContext(v -> message.reply(null));
      }
      return;
    }
    if (headers.contains(CLOSE)) {
      if (onCloseRequested != null) {
        onCloseRequested.run();
      }
      if (message.replyAddress() != null) {
        message.reply(null);
      }
      return;
    }
    String replyTo = headers.get(McpEventBus.REPLY_TO);
    String stream = headers.get(McpEventBus.STREAM);
    DeliveryOptions options = new DeliveryOptions();
    if (stream != null) {
      options.addHeader(McpEventBus.STREAM, stream);
    }
    MessageSink sink = new BusSink(vertx.eventBus(), replyTo != null ? replyTo : defaultOutbound, options,
        stream != null && headers.contains(McpEventBus.RESUMABLE));
    if (stream != null && message.body() instanceof JsonRpcRequest request) {
      if (streamed.isRunning(stream, request)) {
        // The same exchange's message again: its sender gave up waiting for our acknowledgement and held it until
        // the session "moved" here, where it already runs. Its answers already go to that exchange.
        if (message.replyAddress() != null) {
          message.reply(null);
        }
        return;
      }
      if (streamed.adopt(stream, request, sink)) {
        adopted(request);
        if (message.replyAddress() != null) {
          message.reply(null);
        }
        return;
      }
      sink = streamed.track(stream, request, sink);
    }
    handle(message.body(), output.to(sink));
    if (message.replyAddress() != null) {
      // The sender waits until what this message changed is stored (notifications/initialized, say). The session
      // may have queued the handling on its context (messages arrive on a duplicate of it): wait behind it.
      context.runOnContext(v -> output.acknowledge(() -> message.reply(null)));
    }
  }

  /** Logs a request sent again through another exchange while it runs here ({@link StreamedRequests#adopt}). */
  private void adopted(JsonRpcRequest request) {
    LOG.info("Session {}: request {} ({}) came again through another instance while it runs here; its answer goes"
        + " there", sessionId, request.id(), request.method());
  }

  /**
   * Cancels the request whose stream {@code streamId} lost its producer, as a {@code notifications/cancelled} from
   * the client would: its handler is told, and the id is free again for the client's re-send. A stream not in the
   * map (answered meanwhile, or never seen here) cancels nothing.
   */
  private void producerLost(String streamId) {
    JsonRpcId requestId = streamed.lose(streamId);
    if (requestId == null || session == null) {
      return;
    }
    LOG.info("Session {}: request {} lost the instance carrying its stream {}; cancelled so it can be sent again",
        sessionId, requestId, streamId);
    session.handle(new JsonRpcNotification("notifications/cancelled", new JsonObject()
        .put("requestId", requestId.wireValue())
        .put("reason", "the instance carrying the request's stream to the client stopped")),
        output.to(new BusSink(vertx.eventBus(), defaultOutbound, new DeliveryOptions(), false)));
  }

  private void handle(Object body, MessageSink sink) {
    if (body instanceof JsonRpcMessage jsonRpc) {
      session.handle(jsonRpc, sink);
    } else if (body instanceof SessionBatch batch) {
      session.handleBatch(batch.members(), sink);
    } else {
      LOG.warn("Session " + sessionId + ": ignored an event-bus message of type "
          + (body == null ? "null" : body.getClass().getName()));
    }
  }
}
