package io.mcpvertx.verticles.impl;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.CancellationSignal;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.client.ClientInfo;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.client.ElicitResult;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.client.Root;
import io.mcpvertx.server.client.SamplingRequest;
import io.mcpvertx.server.client.SamplingResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * The {@link RequestContext} a feature verticle's handler sees: the caller's context, shipped with the call, and
 * progress, logging and client requests sent back to the calling session over the call's callback address.
 *
 * <p>Confined to the feature verticle's context.
 */
public final class RemoteRequestContext implements RequestContext {

  private final Vertx vertx;
  private final Context context;
  private final String callback;
  private final ProtocolVersion version;
  private final String sessionId;
  private final JsonRpcId requestId;
  private final JsonObject meta;
  private final ClientInfo client;
  private final Principal principal;
  private final long clientRequestTimeoutMs;
  private final CancellationSignal cancellation = new CancellationSignal();
  private volatile boolean unflushed;

  public RemoteRequestContext(Vertx vertx, Context context, String callback, JsonObject shipped,
      long clientRequestTimeoutMs) {
    this.vertx = vertx;
    this.context = context;
    this.callback = callback;
    this.version = ProtocolVersion.fromId(shipped.getString("protocolVersion")).orElse(ProtocolVersion.LATEST);
    this.sessionId = shipped.getString("sessionId");
    String id = shipped.getString("requestId");
    this.requestId = id == null ? null : JsonRpcId.decode(id);
    this.meta = shipped.getJsonObject("meta", new JsonObject());
    this.client = shipped.getValue("client") instanceof JsonObject c ? ClientInfo.fromJson(c) : ClientInfo.UNKNOWN;
    this.principal = shipped.getValue("principal") instanceof JsonObject p ? Principal.fromJson(p) : null;
    this.clientRequestTimeoutMs = clientRequestTimeoutMs;
  }

  /** The context of a local request, in the shape {@link RemoteRequestContext} reads. */
  public static JsonObject ship(RequestContext ctx) {
    JsonObject json = new JsonObject()
        .put("protocolVersion", ctx.protocolVersion().id())
        .put("meta", ctx.meta())
        .put("client", ctx.client().toJson());
    if (ctx.sessionId() != null) {
      json.put("sessionId", ctx.sessionId());
    }
    if (ctx.requestId() != null) {
      json.put("requestId", ctx.requestId().encode());
    }
    ctx.principal().ifPresent(p -> json.put("principal", p.toJson()));
    return json;
  }

  /** Called on this context when the caller cancels. */
  public void cancel(String reason) {
    cancellation.cancel(reason);
  }

  @Override
  public Vertx vertx() {
    return vertx;
  }

  @Override
  public ProtocolVersion protocolVersion() {
    return version;
  }

  @Override
  public String sessionId() {
    return sessionId;
  }

  @Override
  public JsonRpcId requestId() {
    return requestId;
  }

  @Override
  public JsonObject meta() {
    return meta;
  }

  @Override
  public ClientInfo client() {
    return client;
  }

  @Override
  public Optional<Principal> principal() {
    return Optional.ofNullable(principal);
  }

  @Override
  public void progress(double progress, Double total, String message) {
    tell(new JsonObject().put("type", "progress").put("progress", progress)
        .put("total", total).put("message", message));
  }

  @Override
  public void log(LoggingLevel level, String logger, Object data) {
    tell(new JsonObject().put("type", "log").put("level", level.wireName())
        .put("logger", logger).put("data", data));
  }

  @Override
  public boolean isCancelled() {
    return cancellation.isCancelled();
  }

  @Override
  public RequestContext onCancel(Handler<String> handler) {
    context.runOnContext(v -> cancellation.onCancel(handler));
    return this;
  }

  @Override
  public Future<ElicitResult> elicit(ElicitRequest request) {
    return ask(new JsonObject().put("type", "elicit").put("params", request.toParams())).map(ElicitResult::fromJson);
  }

  @Override
  public Future<SamplingResult> sample(SamplingRequest request) {
    return ask(new JsonObject().put("type", "sample").put("params", request.params())).map(SamplingResult::new);
  }

  @Override
  public Future<List<Root>> roots() {
    return ask(new JsonObject().put("type", "roots")).map(json -> {
      List<Root> roots = new ArrayList<>();
      for (Object root : json.getJsonArray("roots", new JsonArray())) {
        roots.add(Root.fromJson((JsonObject) root));
      }
      return roots;
    });
  }

  @Override
  public void elicitationComplete(String elicitationId) {
    tell(new JsonObject().put("type", "elicitationComplete")
        .put("elicitationId", elicitationId));
  }

  @Override
  public <T> Future<T> executeBlocking(Callable<T> work) {
    return context.executeBlocking(work, false);
  }

  /**
   * Completes once the calling server has handled every progress, log and elicitation-complete message sent so
   * far. The call's reply travels to another address, so without this it can overtake them, and the session drops
   * what arrives after the response.
   */
  public Future<Void> flush() {
    if (!unflushed) {
      return Future.succeededFuture();
    }
    unflushed = false;
    return vertx.eventBus().request(callback, new JsonObject().put("type", "flush"),
            new DeliveryOptions().setSendTimeout(clientRequestTimeoutMs))
        .<Void>mapEmpty()
        .otherwiseEmpty();
  }

  private void tell(JsonObject message) {
    unflushed = true;
    vertx.eventBus().send(callback, message);
  }

  private Future<JsonObject> ask(JsonObject question) {
    return vertx.eventBus().<JsonObject>request(callback, question,
            new DeliveryOptions().setSendTimeout(clientRequestTimeoutMs))
        .compose(RemoteProtocol::result)
        .recover(failure -> Future.failedFuture(RemoteProtocol.toMcpException(failure, "The calling session")));
  }
}
