package io.mcpvertx.verticles;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.verticles.impl.cluster.ClusterMembership;
import io.mcpvertx.verticles.impl.RemoteProtocol;
import io.mcpvertx.verticles.impl.RemoteRequestContext;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A tool, prompt or resource deployed as its own verticle. It announces its definition on the event bus and
 * serves calls there, so it can run on any node of a cluster; servers pick it up with {@link RemoteFeatures}.
 * Extend {@link McpToolVerticle}, {@link McpPromptVerticle} or {@link McpResourceVerticle}.
 *
 * <p>Calls are served on this verticle's context; deploy it as a worker verticle if its handler blocks.
 * Undeploying it withdraws the feature; calls still being served see a cancellation, and their callers an error.
 */
public abstract class McpFeatureVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(McpFeatureVerticle.class);
  private static final long DEFAULT_CLIENT_REQUEST_TIMEOUT_MS = 60_000;

  private final String address = RemoteProtocol.CALL_PREFIX + RemoteProtocol.randomId();
  private final Map<String, Call> calls = new HashMap<>();
  private MessageConsumer<JsonObject> callConsumer;
  private MessageConsumer<JsonObject> cancelConsumer;
  private MessageConsumer<Object> discoverConsumer;

  /** A call being served: its handler's context and the message to answer. */
  private record Call(RemoteRequestContext ctx, Message<JsonObject> message) {
  }

  McpFeatureVerticle() {
  }

  /** {@code tool}, {@code prompt} or {@code resource}. */
  abstract String kind();

  /** The name or URI that identifies the feature. */
  abstract String key();

  /** The definition in its newest wire form. */
  abstract JsonObject definition();

  /** Serves one call; the payload holds the kind-specific members. */
  abstract Future<JsonObject> serve(JsonObject payload, RequestContext ctx);

  /** How long an elicitation, sampling or roots request made by the handler may wait. */
  protected long clientRequestTimeoutMs() {
    return DEFAULT_CLIENT_REQUEST_TIMEOUT_MS;
  }

  @Override
  public final Future<?> start() {
    EventBus bus = vertx.eventBus();
    callConsumer = bus.consumer(address, this::onCall);
    cancelConsumer = bus.consumer(address + RemoteProtocol.CANCEL_SUFFIX, this::onCancel);
    discoverConsumer = bus.consumer(RemoteProtocol.DISCOVER, m -> announce());
    return Future.all(callConsumer.completion(), cancelConsumer.completion(), discoverConsumer.completion())
        .onSuccess(v -> announce());
  }

  @Override
  public final Future<?> stop() {
    vertx.eventBus().publish(RemoteProtocol.WITHDRAW, identity());
    // Answer the calls still being served, or their callers would wait for the whole call timeout.
    List<Call> unanswered = new ArrayList<>(calls.values());
    calls.clear();
    for (Call call : unanswered) {
      call.ctx().cancel(kind() + " " + key() + " was stopped");
      call.message().fail(JsonRpcErrorCodes.INTERNAL_ERROR, kind() + " " + key() + " was stopped before it answered");
    }
    return Future.all(callConsumer.unregister(), cancelConsumer.unregister(), discoverConsumer.unregister());
  }

  private JsonObject identity() {
    JsonObject identity = new JsonObject().put("kind", kind()).put("key", key()).put("address", address);
    // Servers on other nodes drop this feature when this node leaves the cluster, even if it never withdraws it.
    String node = ClusterMembership.localNodeId(vertx);
    if (node != null) {
      identity.put("node", node);
    }
    return identity;
  }

  private void announce() {
    vertx.eventBus().publish(RemoteProtocol.ANNOUNCE, identity().put("definition", definition()));
  }

  private void onCall(Message<JsonObject> message) {
    JsonObject payload = message.body();
    String callId = payload.getString("callId", "");
    RemoteRequestContext ctx = new RemoteRequestContext(vertx, context, payload.getString("callback"),
        payload.getJsonObject("context", new JsonObject()), clientRequestTimeoutMs());
    calls.put(callId, new Call(ctx, message));
    Future<JsonObject> result;
    try {
      result = serve(payload, ctx);
    } catch (RuntimeException e) {
      result = Future.failedFuture(e);
    }
    result.onComplete(ar -> {
      if (calls.remove(callId) != null) { // else stop() has answered it
        ctx.flush().onComplete(flushed -> answer(message, ar));
      }
    });
  }

  private void answer(Message<JsonObject> message, AsyncResult<JsonObject> ar) {
    if (ar.succeeded()) {
      message.reply(ar.result());
    } else if (ar.cause() instanceof McpException mcp) {
      RemoteProtocol.replyError(message, mcp);
    } else {
      LOG.error(kind() + " " + key() + " failed", ar.cause());
      message.fail(JsonRpcErrorCodes.INTERNAL_ERROR, "Internal error in " + kind() + " " + key());
    }
  }

  private void onCancel(Message<JsonObject> message) {
    Call call = calls.get(message.body().getString("callId", ""));
    if (call != null) {
      call.ctx().cancel(message.body().getString("reason"));
    }
  }
}
