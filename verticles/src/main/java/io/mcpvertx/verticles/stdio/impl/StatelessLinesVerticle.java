package io.mcpvertx.verticles.stdio.impl;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.StatelessServer;
import io.mcpvertx.server.StatelessServer.Call;
import io.mcpvertx.server.StatelessServer.Subscription;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

/**
 * The stateless generation (2026-07-28) over stdio: requests whose {@code _meta} names a protocol version, each
 * complete in itself (no {@code initialize}), served by the server's {@link StatelessServer} on this verticle's
 * event loop. Their notifications and then their response go to the output as lines; {@code notifications/cancelled}
 * naming one of them cancels it, or ends a {@code subscriptions/listen}. At end of input the verticle is undeployed,
 * which cancels what is still running.
 *
 * <p>Everything here is confined to this verticle's event loop.
 */
final class StatelessLinesVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(StatelessLinesVerticle.class);

  private final StatelessServer engine;
  private final String address;
  private final String outAddress;
  private final Map<JsonRpcId, Call> calls = new HashMap<>();
  private final Map<JsonRpcId, Subscription> subscriptions = new HashMap<>();
  private MessageConsumer<JsonRpcMessage> consumer;

  StatelessLinesVerticle(StatelessServer engine, String address, String outAddress) {
    this.engine = engine;
    this.address = address;
    this.outAddress = outAddress;
  }

  /** Whether a message belongs to the stateless generation: a request whose {@code _meta} names its revision. */
  static boolean isStateless(JsonRpcMessage message) {
    return message instanceof JsonRpcRequest request
        && request.paramsOrEmpty().getValue("_meta") instanceof JsonObject meta
        && meta.containsKey(StatelessServer.META_PROTOCOL_VERSION);
  }

  @Override
  public Future<?> start() {
    consumer = vertx.eventBus().consumer(address, m -> handle(m.body()));
    return consumer.completion();
  }

  @Override
  public Future<?> stop() {
    new ArrayList<>(calls.values()).forEach(call -> call.cancel("The input ended"));
    new ArrayList<>(subscriptions.values()).forEach(Subscription::close);
    calls.clear();
    subscriptions.clear();
    return consumer.unregister();
  }

  private void handle(JsonRpcMessage message) {
    if (message instanceof JsonRpcRequest request) {
      serve(request);
    } else if (message instanceof JsonRpcNotification n && "notifications/cancelled".equals(n.method())) {
      cancelled(n);
    }
  }

  private void serve(JsonRpcRequest request) {
    EventBus bus = vertx.eventBus();
    JsonRpcId id = request.id();
    JsonRpcError refused = engine.validate(request);
    if (refused != null) {
      bus.send(outAddress, new JsonRpcErrorResponse(id, refused));
      return;
    }
    if (calls.containsKey(id) || subscriptions.containsKey(id)) {
      bus.send(outAddress, new JsonRpcErrorResponse(id, new JsonRpcError(JsonRpcErrorCodes.INVALID_REQUEST,
          "Invalid Request: a request with this id is still in progress")));
      return;
    }
    if (StatelessServer.isListen(request)) {
      try {
        subscriptions.put(id, engine.listen(request, null, m -> bus.send(outAddress, m)));
      } catch (McpException e) {
        bus.send(outAddress, new JsonRpcErrorResponse(id, e.error()));
      }
      return;
    }
    Call call = engine.serve(request, null, m -> bus.send(outAddress, m));
    calls.put(id, call);
    call.response().onComplete(ar -> {
      if (!calls.remove(id, call)) {
        return; // cancelled: no response is due
      }
      if (ar.succeeded()) {
        bus.send(outAddress, ar.result());
      } else {
        LOG.error("A stateless request failed", ar.cause());
        bus.send(outAddress, new JsonRpcErrorResponse(id,
            new JsonRpcError(JsonRpcErrorCodes.INTERNAL_ERROR, "Internal error")));
      }
    });
  }

  private void cancelled(JsonRpcNotification notification) {
    Object requestId = notification.params() == null ? null : notification.params().getValue("requestId");
    JsonRpcId id = requestId instanceof String s ? JsonRpcId.of(s)
        : requestId instanceof Number n ? JsonRpcId.of(n.longValue()) : null;
    if (id == null) {
      return;
    }
    Call call = calls.remove(id);
    if (call != null) {
      String reason = notification.params().getString("reason", "Cancelled by the client");
      call.cancel(reason);
    }
    Subscription subscription = subscriptions.remove(id);
    if (subscription != null) {
      subscription.close();
    }
  }
}
