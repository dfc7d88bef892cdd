package io.mcpvertx.verticles.impl;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.client.SamplingRequest;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptResult;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceResult;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.verticles.RemoteFeatures;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Follows feature-verticle announcements and registers a proxy for each on the server. A proxy forwards the call
 * with the caller's context, and relays what the remote handler sends back (progress, logs, client requests) to
 * the calling session.
 */
public final class RemoteFeaturesImpl implements RemoteFeatures {

  private static final Logger LOG = System.getLogger(RemoteFeaturesImpl.class.getName());

  /** What is registered for one kind and key: the address serving it and its definition. */
  private record Entry(String address, JsonObject definition) {
  }

  private final Vertx vertx;
  private final McpServer server;
  private final long callTimeoutMs;
  private final Map<String, Entry> entries = new ConcurrentHashMap<>();
  private MessageConsumer<JsonObject> announcements;
  private MessageConsumer<JsonObject> withdrawals;

  private RemoteFeaturesImpl(Vertx vertx, McpServer server, long callTimeoutMs) {
    this.vertx = vertx;
    this.server = server;
    this.callTimeoutMs = callTimeoutMs;
  }

  public static Future<RemoteFeatures> attach(Vertx vertx, McpServer server, long callTimeoutMs) {
    RemoteFeaturesImpl bridge = new RemoteFeaturesImpl(vertx, server, callTimeoutMs);
    EventBus bus = vertx.eventBus();
    bridge.announcements = bus.consumer(RemoteProtocol.ANNOUNCE, m -> bridge.onAnnounce(m.body()));
    bridge.withdrawals = bus.consumer(RemoteProtocol.WITHDRAW, m -> bridge.onWithdraw(m.body()));
    return Future.all(bridge.announcements.completion(), bridge.withdrawals.completion())
        .map(v -> {
          bus.publish(RemoteProtocol.DISCOVER, new JsonObject());
          return bridge;
        });
  }

  @Override
  public int size() {
    return entries.size();
  }

  @Override
  public Future<Void> close() {
    for (String kindKey : entries.keySet()) {
      int sep = kindKey.indexOf(':');
      unregister(kindKey.substring(0, sep), kindKey.substring(sep + 1));
    }
    entries.clear();
    return Future.all(announcements.unregister(), withdrawals.unregister()).mapEmpty();
  }

  private void onAnnounce(JsonObject announcement) {
    String kind = announcement.getString("kind");
    String key = announcement.getString("key");
    String address = announcement.getString("address");
    JsonObject definition = announcement.getJsonObject("definition");
    if (kind == null || key == null || address == null || definition == null) {
      LOG.log(Level.WARNING, "Ignored a malformed feature announcement: " + announcement.encode());
      return;
    }
    Entry entry = new Entry(address, definition);
    Entry previous = entries.put(kind + ":" + key, entry);
    if (entry.equals(previous)) {
      return; // a re-announcement after discovery: nothing changed, so no list_changed either
    }
    try {
      switch (kind) {
        case RemoteProtocol.KIND_TOOL -> server.tool(Tool.fromJson(definition), (args, ctx) ->
            call(address, "tool " + key, new JsonObject().put("arguments", args), ctx).map(ToolResult::fromJson));
        case RemoteProtocol.KIND_PROMPT -> server.prompt(Prompt.fromJson(definition), (args, ctx) -> {
          JsonObject arguments = new JsonObject();
          args.forEach(arguments::put);
          return call(address, "prompt " + key, new JsonObject().put("arguments", arguments), ctx)
              .map(PromptResult::fromJson);
        });
        case RemoteProtocol.KIND_RESOURCE -> server.resource(Resource.fromJson(definition), (uri, ctx) ->
            call(address, "resource " + key, new JsonObject().put("uri", uri), ctx).map(ResourceResult::fromJson));
        default -> {
          entries.remove(kind + ":" + key, entry);
          LOG.log(Level.WARNING, "Ignored an announcement of unknown kind " + kind);
        }
      }
    } catch (IllegalArgumentException e) {
      entries.remove(kind + ":" + key, entry);
      LOG.log(Level.WARNING, "Ignored an invalid " + kind + " definition for " + key + ": " + e.getMessage());
    }
  }

  private void onWithdraw(JsonObject withdrawal) {
    String kind = withdrawal.getString("kind");
    String key = withdrawal.getString("key");
    Entry entry = entries.get(kind + ":" + key);
    // Only the instance that is registered may withdraw it; a newer deployment may have replaced it.
    if (entry != null && entry.address().equals(withdrawal.getString("address"))
        && entries.remove(kind + ":" + key, entry)) {
      unregister(kind, key);
    }
  }

  private void unregister(String kind, String key) {
    switch (kind) {
      case RemoteProtocol.KIND_TOOL -> server.removeTool(key);
      case RemoteProtocol.KIND_PROMPT -> server.removePrompt(key);
      case RemoteProtocol.KIND_RESOURCE -> server.removeResource(key);
      default -> {
      }
    }
  }

  /** Calls a feature verticle; runs on the calling session's context. */
  private Future<JsonObject> call(String address, String what, JsonObject payload, RequestContext ctx) {
    EventBus bus = vertx.eventBus();
    String callId = RemoteProtocol.randomId();
    String callbackAddress = RemoteProtocol.CALLBACK_PREFIX + callId;
    MessageConsumer<JsonObject> callback = bus.consumer(callbackAddress, m -> onCallback(m, ctx));
    payload.put("callId", callId).put("callback", callbackAddress).put("context", RemoteRequestContext.ship(ctx));
    ctx.onCancel(reason -> bus.send(address + RemoteProtocol.CANCEL_SUFFIX,
        new JsonObject().put("callId", callId).put("reason", reason)));
    return callback.completion()
        .compose(v -> bus.<JsonObject>request(address, payload, new DeliveryOptions().setSendTimeout(callTimeoutMs)))
        .compose(RemoteProtocol::result)
        .recover(failure -> Future.failedFuture(RemoteProtocol.toMcpException(failure, what)))
        .eventually(callback::unregister);
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
      default -> LOG.log(Level.WARNING, "Ignored a callback of unknown type: " + body.encode());
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
