package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.Principal;
import io.mcpvertx.verticles.bus.McpEventBus;
import io.mcpvertx.verticles.bus.SessionBatch;
import io.mcpvertx.verticles.http.impl.HttpErrors.Refusal;
import io.mcpvertx.verticles.http.impl.session.HttpSession;
import io.mcpvertx.verticles.http.impl.session.SessionLimitException;
import io.mcpvertx.verticles.http.impl.session.StoreUnavailableException;
import io.mcpvertx.verticles.impl.SessionVerticle;
import io.vertx.core.Context;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The POSTs of the 2025 generation on one HTTP verticle: {@code initialize} creates a session; any other message
 * goes to its session's verticle over the event bus, and a request's answers come back to the verticle's router
 * address as a {@link PostExchange} of this verticle. Confined to the verticle's context.
 */
final class SessionPosts {

  private static final Logger LOG = LoggerFactory.getLogger(SessionPosts.class);
  /** How long a 202 waits for the session to store what a notification changed before it goes anyway. */
  private static final long STORED_ACK_TIMEOUT_MS = 10_000;

  private final HttpEndpoint endpoint;
  private final Context context;
  private final String routerAddress;
  /** The exchanges under way, for their heartbeats. */
  private final OpenExchanges exchanges = new OpenExchanges();
  /** Those whose session runs on another instance, by stream id: their answers come back over the event bus. */
  private final Map<String, PostExchange> routed = new HashMap<>();

  /** @param routerAddress where the sessions send what answers this verticle's POSTs */
  SessionPosts(HttpEndpoint endpoint, Context context, String routerAddress) {
    this.endpoint = endpoint;
    this.context = context;
    this.routerAddress = routerAddress;
  }

  /** @param principal the authenticated caller, or null without authorization */
  void post(HttpServerRequest request, Principal principal, Decoded decoded) {
    if (decoded instanceof Decoded.Message m && m.message() instanceof JsonRpcRequest r
        && r.method().equals("initialize")) {
      initialize(request, principal, r);
      return;
    }
    HttpServerResponse response = request.response();
    SessionLookup.withSession(endpoint.sessions, request, principal, session -> {
      if (decoded instanceof Decoded.Batch batch) {
        postBatch(session, batch, response, principal);
        return;
      }
      JsonRpcMessage message = ((Decoded.Message) decoded).message();
      if (message instanceof JsonRpcRequest r) {
        exchange(session, response, message, List.of(r.id()), false, false, principal);
        return;
      }
      if (message instanceof JsonRpcNotification n && n.method().equals("notifications/initialized")) {
        session.initialized();
      }
      accept(session, message, response);
    });
  }

  /** What a session sends back for a POST stream of this verticle. */
  void route(Message<Object> message) {
    PostExchange exchange = routed.get(message.headers().get(McpEventBus.STREAM));
    if (exchange == null) {
      return; // the exchange ended (answered, or its session closed): nothing waits for this any more
    }
    String abandoned = message.headers().get(McpEventBus.ABANDONED);
    String close = message.headers().get(McpEventBus.CLOSE_SSE_STREAM);
    Object body = message.body();
    if (close != null) {
      exchange.closeConnection(Long.parseLong(close));
    } else if (abandoned != null) {
      exchange.abandoned(JsonRpcId.decode(abandoned));
    } else if (body instanceof JsonRpcMessage jsonRpc) {
      exchange.deliver(jsonRpc);
    } else if (body instanceof SessionBatch batch) {
      exchange.deliverBatch(batch.messages());
    }
  }

  /**
   * The server is stopping: every POST stream a client can resume is closed after its priming event with a
   * {@code retry} of {@code retryMs} (SEP-1699), so its client follows it from another instance while the request
   * runs on here; the others (JSON responses, revisions before 2025-11-25, batches) are answered here.
   */
  void handOverAll(long retryMs) {
    exchanges.snapshot().forEach(exchange -> exchange.closeConnection(retryMs));
  }

  void heartbeats() {
    // A copy: a heartbeat that finds a dead connection ends its exchange, which removes it from the list.
    exchanges.snapshot().forEach(PostExchange::heartbeat);
  }

  /**
   * Hands the session what needs no answer and answers 202. With shared stores the 202 waits until the session has
   * stored what the message changed ({@code notifications/initialized}), so the client may go on on any instance.
   */
  private void accept(HttpSession session, Object body, HttpServerResponse response) {
    SessionVerticle local = session.verticle();
    if (!endpoint.sessions.shared()) {
      if (local != null) {
        local.deliver(body, null, null);
      } else {
        endpoint.vertx.eventBus().send(McpEventBus.sessionAddress(session.id()), body);
      }
      response.setStatusCode(202).end();
      return;
    }
    Runnable accepted = () -> {
      if (!response.ended() && !response.closed()) {
        response.setStatusCode(202).end();
      }
    };
    if (local == null) {
      endpoint.vertx.eventBus().request(McpEventBus.sessionAddress(session.id()), body,
          new DeliveryOptions().setSendTimeout(STORED_ACK_TIMEOUT_MS)).onComplete(ar -> accepted.run());
      return;
    }
    long timer = endpoint.vertx.setTimer(STORED_ACK_TIMEOUT_MS, t -> accepted.run());
    local.deliver(body, null, () -> context.runOnContext(v -> {
      endpoint.vertx.cancelTimer(timer);
      accepted.run();
    }));
  }

  private void initialize(HttpServerRequest http, Principal principal, JsonRpcRequest request) {
    HttpServerResponse response = http.response();
    if (http.getHeader(McpHeaders.SESSION_ID) != null) {
      HttpErrors.reject(response, Refusal.BAD_REQUEST, JsonRpcErrorCodes.INVALID_REQUEST,
          "Invalid Request: initialize must not carry " + McpHeaders.SESSION_ID);
      return;
    }
    String remoteHost = http.remoteAddress() == null ? null : http.remoteAddress().hostAddress();
    endpoint.sessions.create(principal, remoteHost).onComplete(ar -> {
      if (ar.failed()) {
        if (ar.cause() instanceof SessionLimitException) {
          response.putHeader("Retry-After", "5");
          HttpErrors.reject(response, Refusal.UNAVAILABLE, JsonRpcErrorCodes.SERVER_OVERLOADED,
              "Service Unavailable: the server holds as many sessions as it may; retry later");
        } else if (ar.cause() instanceof StoreUnavailableException) {
          LOG.atWarn().log(() -> "No session could start: " + ar.cause().getMessage());
          response.putHeader("Retry-After", "2");
          HttpErrors.reject(response, Refusal.UNAVAILABLE, "Service Unavailable: a store did not answer; retry later");
        } else {
          HttpErrors.reject(response, Refusal.INTERNAL, JsonRpcErrorCodes.INTERNAL_ERROR,
              "Internal error: no session could start");
        }
        return;
      }
      HttpSession session = ar.result();
      response.putHeader(McpHeaders.SESSION_ID, session.id());
      exchange(session, response, request, List.of(request.id()), false, true, principal);
    });
  }

  private void postBatch(HttpSession session, Decoded.Batch batch, HttpServerResponse response, Principal principal) {
    ProtocolVersion version = session.version();
    if (version != null && !version.supports(ProtocolFeature.BATCHING)) {
      HttpErrors.reject(response, Refusal.BAD_REQUEST, JsonRpcErrorCodes.INVALID_REQUEST,
          "Invalid Request: JSON-RPC batches are not supported by protocol version " + version.id());
      return;
    }
    List<JsonRpcId> ids = new ArrayList<>();
    boolean answerable = false;
    for (Decoded member : batch.members()) {
      if (member instanceof Decoded.Message m && m.message() instanceof JsonRpcNotification n
          && n.method().equals("notifications/initialized")) {
        session.initialized();
      }
      if (member instanceof Decoded.Message m && m.message() instanceof JsonRpcRequest r) {
        ids.add(r.id());
        answerable = true;
      } else if (member instanceof Decoded.Invalid) {
        answerable = true;
      }
    }
    SessionBatch body = new SessionBatch(batch.members());
    if (!answerable) {
      accept(session, body, response);
      return;
    }
    exchange(session, response, body, ids, true, false, principal);
  }

  private void exchange(HttpSession session, HttpServerResponse response, Object body, List<JsonRpcId> ids,
      boolean batch, boolean initialize, Principal principal) {
    boolean routedHere = session.verticle() == null;
    PostExchange exchange = new PostExchange(endpoint, context, session, response, endpoint.options.getResponseMode(), ids,
        batch, initialize, done -> {
          exchanges.remove(done);
          if (routedHere) {
            routed.remove(done.streamId());
          }
          done.session().removeOnClose(done);
        });
    exchanges.add(exchange);
    if (routedHere) {
      routed.put(exchange.streamId(), exchange);
    }
    dispatch(exchange, body, principal, 0);
  }

  /**
   * Hands an exchange's message to its session: straight to its verticle when it runs in this JVM, else over the
   * event bus to the instance that runs it.
   *
   * @param deadline when a message held for its session to move gives up (0: not held yet)
   */
  private void dispatch(PostExchange exchange, Object body, Principal principal, long deadline) {
    HttpSession session = exchange.session();
    SessionVerticle local = session.verticle();
    long bound = local == null && session.remote() ? endpoint.sessions.failoverBoundMs() : 0;
    Acknowledgement ack = new Acknowledgement();
    session.onClose(exchange, () -> context.runOnContext(v -> {
      if (bound <= 0 || ack.taken) {
        exchange.sessionClosed();
      } else {
        // Not the owner's to answer for until it acknowledges it: the failure of the request below holds it.
        ack.routeEnded = true;
      }
    }));
    if (session.isClosed()) {
      exchange.sessionClosed();
      return;
    }
    if (local != null) {
      // The session runs in this JVM: straight to its context, no event bus (and no thread hop when it runs on
      // this verticle's event loop).
      ExchangeSink sink = new ExchangeSink(context, Thread.currentThread(), exchange);
      if (deadline > 0) {
        // Held after a send over the bus that may have reached this very verticle.
        local.redeliver(body, sink, exchange.streamId());
        exchange.handedOff();
      } else if (exchange.isStream() && local.runsOn(Thread.currentThread())) {
        // An SSE answer handled on this loop: the session says when it is done with the message, which uncorks the
        // stream if its answer did not end it, so no turn of the loop is queued for that. (A JSON answer has no
        // stream to uncork unless the turn makes one, rarely: that one is uncorked on the next turn.)
        local.deliver(body, sink, () -> sink.onLoop(exchange::turnEnded));
        exchange.handedOffHere();
      } else {
        local.deliver(body, sink, null);
        exchange.handedOff();
      }
      return;
    }
    DeliveryOptions options = new DeliveryOptions()
        .addHeader(McpEventBus.REPLY_TO, routerAddress)
        .addHeader(McpEventBus.STREAM, exchange.streamId());
    if (exchange.resumable()) {
      // The exchange can become an SSE stream whose events are stored: a handler may hand it to a later GET.
      options.addHeader(McpEventBus.RESUMABLE, "1");
    }
    String address = McpEventBus.sessionAddress(session.id());
    if (bound <= 0) {
      endpoint.vertx.eventBus().send(address, body, options);
      exchange.handedOff();
      return;
    }
    // Clustered, the owner acknowledges what it took; a message it did not take (it died, or let the session go)
    // is held until the session moves, and goes where it runs then, so the client need not send it again.
    long heldUntil = deadline > 0 ? deadline : System.currentTimeMillis() + bound;
    endpoint.vertx.eventBus().request(address, body, options.setSendTimeout(bound))
        .onComplete(ar -> context.runOnContext(v -> {
          if (ar.failed()) {
            hold(exchange, body, principal, heldUntil);
            return;
          }
          ack.taken = true;
          if (ack.routeEnded) {
            exchange.sessionClosed();
          }
        }));
    exchange.handedOff();
  }

  /** Whether the owner took an exchange's message, and whether the route ended before it said so. */
  private static final class Acknowledgement {
    boolean taken;
    boolean routeEnded;
  }

  /**
   * The owner of the exchange's session did not take its message: waits until the session moves (up to
   * {@code deadline}) and sends it there. When the owner is still live after all, its answer comes as usual; when
   * the session did not move in time, or is gone, the client is told to send the request again.
   */
  private void hold(PostExchange exchange, Object body, Principal principal, long deadline) {
    HttpSession route = exchange.session();
    if (exchange.isDone() || !route.remote()) {
      return;
    }
    // Not among the owner's requests, answered with the error to send them again when the route ends.
    route.removeOnClose(exchange);
    long left = Math.max(0, deadline - System.currentTimeMillis());
    endpoint.sessions.moved(route, principal, left).onComplete(ar -> context.runOnContext(v -> {
      if (exchange.isDone()) {
        return;
      }
      HttpSession moved = ar.succeeded() ? ar.result() : null;
      if (moved != null) {
        LOG.atDebug().log(() -> "A request held for session " + route.id() + " goes on where it moved");
        exchange.moveTo(moved);
        dispatch(exchange, body, principal, deadline);
      } else if (ar.succeeded() && !route.isClosed()) {
        // The owner is live: it may be slow rather than gone, and answers on its own.
        route.onClose(exchange, () -> context.runOnContext(w -> exchange.sessionClosed()));
      } else {
        LOG.atWarn().log(() -> "A request for session " + route.id() + " found no instance to run it within "
            + endpoint.sessions.failoverBoundMs() + " ms");
        exchange.answerOwnerLost();
      }
    }));
  }

  /**
   * What a session in this JVM sends back for one exchange, moved onto the HTTP verticle's context. A session on
   * this verticle's own event loop calls it on that thread: the exchange is then told at once, as a task queued
   * behind everything else on the loop would only add a turn (and, for a stream, a write) to every answer. The
   * exchange's code then runs on the loop it is confined to, only under the session's context. What a handler sends
   * from another thread (a worker) is queued, and while any of it waits, so is everything after it: the client
   * gets the exchange's messages in the order they were sent.
   */
  private static final class ExchangeSink implements MessageSink {

    private static final AtomicIntegerFieldUpdater<ExchangeSink> QUEUED =
        AtomicIntegerFieldUpdater.newUpdater(ExchangeSink.class, "queued");

    private final Context context;
    private final Thread loop;
    private final PostExchange exchange;
    /** Messages queued onto the context and not yet handed to the exchange. */
    private volatile int queued;

    ExchangeSink(Context context, Thread loop, PostExchange exchange) {
      this.context = context;
      this.loop = loop;
      this.exchange = exchange;
    }

    private void onLoop(Runnable action) {
      if (Thread.currentThread() == loop && queued == 0) {
        action.run();
        return;
      }
      QUEUED.incrementAndGet(this);
      context.runOnContext(v -> {
        QUEUED.decrementAndGet(this);
        action.run();
      });
    }

    @Override
    public void send(JsonRpcMessage message) {
      onLoop(() -> exchange.deliver(message));
    }

    @Override
    public void sendBatch(List<JsonRpcMessage> responses) {
      onLoop(() -> exchange.deliverBatch(responses));
    }

    @Override
    public void abandoned(JsonRpcId requestId) {
      onLoop(() -> exchange.abandoned(requestId));
    }

    @Override
    public boolean resumable() {
      return exchange.resumable();
    }

    @Override
    public void closeSseStream(long retryMs) {
      onLoop(() -> exchange.closeConnection(retryMs));
    }
  }
}
