package io.mcpvertx.verticles.impl;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.client.SamplingRequest;
import io.mcpvertx.verticles.impl.cluster.Departures;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Calls from a server's proxies to feature verticles: the call goes with the caller's context, and what the remote
 * handler sends back (progress, logs, client requests) is relayed to the calling session. Calls to a verticle on
 * another cluster node are remembered until answered, so that when that node leaves they fail at once rather than
 * at the call timeout (a request whose recipient died is never answered).
 *
 * <p>Everything sent is a {@link JsonObject} (or a failure code and message), so it crosses a clustered event bus.
 */
final class RemoteCalls {

  private static final Logger LOG = LoggerFactory.getLogger(RemoteCalls.class);

  /** The failure of a call whose verticle's node left the cluster before answering. */
  static final class NodeLeftException extends McpException {
    NodeLeftException(String what) {
      super(JsonRpcErrorCodes.INTERNAL_ERROR, what + " failed: the cluster node serving it left before it answered");
    }
  }

  /**
   * One call: the verticle it went to (the next candidate after one that had no handler left) and its outcome,
   * completed on the caller's context.
   */
  private static final class Call {
    final String id;
    final String what;
    final Context context;
    final List<FeatureProvider> candidates;
    final Promise<JsonObject> outcome = Promise.promise();
    /** Written on the caller's context, read by {@link #nodeLeft} on the bridge's. */
    volatile FeatureProvider target;

    Call(String id, String what, Context context, List<FeatureProvider> candidates) {
      this.id = id;
      this.what = what;
      this.context = context;
      this.candidates = candidates;
    }
  }

  private final Vertx vertx;
  private final long callTimeoutMs;
  private final Departures departures;
  private final Map<String, Call> inFlight = new ConcurrentHashMap<>();

  RemoteCalls(Vertx vertx, long callTimeoutMs, Departures departures) {
    this.vertx = vertx;
    this.callTimeoutMs = callTimeoutMs;
    this.departures = departures;
  }

  /**
   * Calls the first of {@code candidates}; runs on the calling session's context. When a candidate has no handler
   * any more (it was undeployed, or its node left, and this bridge has not heard yet) the call certainly did not
   * reach it, so the next one is tried.
   */
  Future<JsonObject> call(List<FeatureProvider> candidates, String what, JsonObject payload, RequestContext ctx) {
    EventBus bus = vertx.eventBus();
    Context context = Vertx.currentContext();
    Call call = new Call(RemoteProtocol.randomId(), what, context == null ? vertx.getOrCreateContext() : context,
        candidates);
    String callbackAddress = RemoteProtocol.CALLBACK_PREFIX + call.id;
    MessageConsumer<JsonObject> callback = bus.consumer(callbackAddress, m -> onCallback(m, ctx));
    payload.put("callId", call.id).put("callback", callbackAddress).put("context", RemoteRequestContext.ship(ctx));
    ctx.onCancel(reason -> {
      FeatureProvider target = call.target;
      if (target != null) {
        bus.send(target.address() + RemoteProtocol.CANCEL_SUFFIX,
            new JsonObject().put("callId", call.id).put("reason", reason));
      }
    });
    inFlight.put(call.id, call);
    callback.completion().onComplete(registered -> {
      if (registered.succeeded()) {
        attempt(call, 0, payload);
      } else {
        call.outcome.tryFail(RemoteProtocol.toMcpException(registered.cause(), what));
      }
    });
    return call.outcome.future().eventually(() -> {
      inFlight.remove(call.id);
      return callback.unregister();
    });
  }

  private void attempt(Call call, int index, JsonObject payload) {
    FeatureProvider target = call.candidates.get(index);
    // Set before looking at the departures, so a departure recorded after this look finds the call in nodeLeft.
    call.target = target;
    if (departures.hasLeft(target.node())) {
      // Its node left since the candidates were chosen; nothing was sent to it, so the next one may be tried.
      if (index + 1 < call.candidates.size()) {
        attempt(call, index + 1, payload);
      } else {
        call.outcome.tryFail(new NodeLeftException(call.what));
      }
      return;
    }
    vertx.eventBus().<JsonObject>request(target.address(), payload,
            new DeliveryOptions().setSendTimeout(callTimeoutMs))
        .compose(RemoteProtocol::result)
        .onComplete(ar -> {
          if (ar.succeeded()) {
            call.outcome.tryComplete(ar.result());
          } else if (undelivered(ar.cause()) && index + 1 < call.candidates.size() && !call.outcome.future()
              .isComplete()) {
            attempt(call, index + 1, payload);
          } else {
            call.outcome.tryFail(RemoteProtocol.toMcpException(ar.cause(), call.what));
          }
        });
  }

  private static boolean undelivered(Throwable failure) {
    return failure instanceof ReplyException reply && reply.failureType() == ReplyFailure.NO_HANDLERS;
  }

  /** Fails the calls in flight to {@code node}, which left the cluster; yields how many. */
  int nodeLeft(String node) {
    int failed = 0;
    for (Call call : inFlight.values()) {
      FeatureProvider target = call.target;
      if (target != null && node.equals(target.node())) {
        failed++;
        call.context.runOnContext(v -> call.outcome.tryFail(new NodeLeftException(call.what)));
      }
    }
    return failed;
  }

  private void onCallback(Message<JsonObject> message, RequestContext ctx) {
    JsonObject body = message.body();
    switch (body.getString("type", "")) {
      case "progress" -> ctx.progress(body.getDouble("progress", 0d), body.getDouble("total"),
          body.getString("message"));
      case "log" -> ctx.log(LoggingLevel.fromWireName(body.getString("level")).orElse(LoggingLevel.INFO),
          body.getString("logger"), body.getValue("data"));
      case "elicitationComplete" -> ctx.elicitationComplete(body.getString("elicitationId"));
      // Everything sent before it has been handled: the callback consumer serves one message at a time, in order.
      case "flush" -> message.reply(new JsonObject());
      case "elicit" -> answer(message, ctx.elicit(elicitRequest(body.getJsonObject("params", new JsonObject())))
          .map(r -> r.toJson()));
      case "sample" -> answer(message, ctx.sample(new SamplingRequest(body.getJsonObject("params")))
          .map(r -> r.json()));
      case "roots" -> answer(message, ctx.roots().map(roots -> {
        JsonArray array = new JsonArray();
        roots.forEach(r -> array.add(new JsonObject().put("uri", r.uri()).put("name", r.name())));
        return new JsonObject().put("roots", array);
      }));
      default -> LOG.warn("Ignored a callback of unknown type: " + body.encode());
    }
  }

  private static void answer(Message<JsonObject> message, Future<JsonObject> answer) {
    answer.onComplete(ar -> {
      if (ar.succeeded()) {
        message.reply(ar.result());
      } else {
        RemoteProtocol.replyError(message, RemoteProtocol.toMcpException(ar.cause(), "The client"));
      }
    });
  }

  private static ElicitRequest elicitRequest(JsonObject params) {
    if ("url".equals(params.getString("mode"))) {
      return ElicitRequest.url(params.getString("message", ""), params.getString("url"),
          params.getString("elicitationId"));
    }
    return ElicitRequest.form(params.getString("message", ""), params.getJsonObject("requestedSchema",
        new JsonObject().put("type", "object")));
  }
}
