package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.verticles.bus.McpEventBus;
import io.mcpvertx.verticles.bus.SessionBatch;
import io.mcpvertx.verticles.http.impl.HttpErrors.Refusal;
import io.mcpvertx.verticles.http.impl.session.HttpSession;
import io.mcpvertx.verticles.http.impl.session.SessionLimitException;
import io.mcpvertx.verticles.http.impl.session.StoreUnavailableException;
import io.vertx.core.Context;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The POSTs of the 2025 generation on one HTTP verticle: {@code initialize} creates a session; any other message
 * goes to its session's verticle over the event bus, and a request's answers come back to the verticle's router
 * address as a {@link PostExchange} of this verticle. Confined to the verticle's context.
 */
final class SessionPosts {

  private static final Logger LOG = System.getLogger(SessionPosts.class.getName());
  /** How long a 202 waits for the session to store what a notification changed before it goes anyway. */
  private static final long STORED_ACK_TIMEOUT_MS = 10_000;

  private final HttpEndpoint endpoint;
  private final Context context;
  private final String routerAddress;
  private final Map<String, PostExchange> exchanges = new HashMap<>();

  /** @param routerAddress where the sessions send what answers this verticle's POSTs */
  SessionPosts(HttpEndpoint endpoint, Context context, String routerAddress) {
    this.endpoint = endpoint;
    this.context = context;
    this.routerAddress = routerAddress;
  }

  void post(RoutingContext rc, Decoded decoded) {
    if (decoded instanceof Decoded.Message m && m.message() instanceof JsonRpcRequest r
        && r.method().equals("initialize")) {
      initialize(rc, r);
      return;
    }
    HttpServerResponse response = rc.response();
    SessionLookup.withSession(endpoint.sessions, rc, session -> {
      if (decoded instanceof Decoded.Batch batch) {
        postBatch(session, batch, response);
        return;
      }
      JsonRpcMessage message = ((Decoded.Message) decoded).message();
      if (message instanceof JsonRpcRequest r) {
        exchange(session, response, message, List.of(r.id()), false, false);
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
    PostExchange exchange = exchanges.get(message.headers().get(McpEventBus.STREAM));
    if (exchange == null) {
      return; // the exchange ended (answered, or its session closed): nothing waits for this any more
    }
    String abandoned = message.headers().get(McpEventBus.ABANDONED);
    Object body = message.body();
    if (abandoned != null) {
      exchange.abandoned(JsonRpcId.decode(abandoned));
    } else if (body instanceof JsonRpcMessage jsonRpc) {
      exchange.deliver(jsonRpc);
    } else if (body instanceof SessionBatch batch) {
      exchange.deliverBatch(batch.messages());
    }
  }

  void heartbeats() {
    // A copy: a heartbeat that finds a dead connection ends its exchange, which removes it from the map.
    new ArrayList<>(exchanges.values()).forEach(PostExchange::heartbeat);
  }

  /**
   * Hands the session what needs no answer and answers 202. With shared stores the 202 waits until the session has
   * stored what the message changed ({@code notifications/initialized}), so the client may go on on any instance.
   */
  private void accept(HttpSession session, Object body, HttpServerResponse response) {
    String address = McpEventBus.sessionAddress(session.id());
    if (!endpoint.sessions.shared()) {
      endpoint.vertx.eventBus().send(address, body);
      response.setStatusCode(202).end();
      return;
    }
    endpoint.vertx.eventBus().request(address, body, new DeliveryOptions().setSendTimeout(STORED_ACK_TIMEOUT_MS))
        .onComplete(ar -> {
          if (!response.ended() && !response.closed()) {
            response.setStatusCode(202).end();
          }
        });
  }

  private void initialize(RoutingContext rc, JsonRpcRequest request) {
    HttpServerResponse response = rc.response();
    if (rc.request().getHeader(McpHeaders.SESSION_ID) != null) {
      HttpErrors.reject(response, Refusal.BAD_REQUEST, JsonRpcErrorCodes.INVALID_REQUEST,
          "Invalid Request: initialize must not carry " + McpHeaders.SESSION_ID);
      return;
    }
    String remoteHost = rc.request().remoteAddress().hostAddress();
    endpoint.sessions.create(AuthGate.principal(rc), remoteHost).onComplete(ar -> {
      if (ar.failed()) {
        if (ar.cause() instanceof SessionLimitException) {
          response.putHeader("Retry-After", "5");
          HttpErrors.reject(response, Refusal.UNAVAILABLE, JsonRpcErrorCodes.SERVER_OVERLOADED,
              "Service Unavailable: the server holds as many sessions as it may; retry later");
        } else if (ar.cause() instanceof StoreUnavailableException) {
          LOG.log(Level.WARNING, () -> "No session could start: " + ar.cause().getMessage());
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
      exchange(session, response, request, List.of(request.id()), false, true);
    });
  }

  private void postBatch(HttpSession session, Decoded.Batch batch, HttpServerResponse response) {
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
    exchange(session, response, body, ids, true, false);
  }

  private void exchange(HttpSession session, HttpServerResponse response, Object body, List<JsonRpcId> ids,
      boolean batch, boolean initialize) {
    String streamId = endpoint.producers.postStreamId(ids, batch);
    PostExchange exchange = new PostExchange(endpoint, session, streamId, response,
        endpoint.options.getResponseMode(), ids, batch, initialize, () -> {
          exchanges.remove(streamId);
          session.removeOnClose(streamId);
        });
    exchanges.put(streamId, exchange);
    session.onClose(streamId, () -> context.runOnContext(v -> exchange.sessionClosed()));
    if (session.isClosed()) {
      exchange.sessionClosed();
      return;
    }
    endpoint.vertx.eventBus().send(McpEventBus.sessionAddress(session.id()), body, new DeliveryOptions()
        .addHeader(McpEventBus.REPLY_TO, routerAddress)
        .addHeader(McpEventBus.STREAM, streamId));
  }
}
