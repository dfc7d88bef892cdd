package io.mcpvertx.server.impl;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.McpSession;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.SessionState;
import io.mcpvertx.server.client.ClientInfo;
import io.mcpvertx.server.client.LoggingLevel;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The session state machine of the 2025 protocol generation.
 *
 * <p>Invariants: all fields are read and written only on {@link #context} (an event-loop context); a request gets
 * exactly one response unless the client cancelled it, in which case it gets none; nothing but {@code ping} and
 * {@code initialize} is served before {@code initialize}; once {@link SessionState#CLOSED} nothing is sent.
 */
final class SessionEngine implements McpSession {

  private static final Logger LOG = System.getLogger(SessionEngine.class.getName());

  private final McpServerImpl server;
  private final String id;
  private final Context context;
  private final MessageSink defaultSink;
  private final PendingRequests pending;
  private final Map<JsonRpcId, SessionRequestContext> inFlight = new HashMap<>();
  private final SessionNotifier notifier;
  private final Principal principal;
  private final Promise<Void> closed = Promise.promise();
  private List<Promise<Void>> idleWaiters;

  private SessionState state = SessionState.AWAITING_INITIALIZE;
  private ProtocolVersion version;
  private ClientInfo client = ClientInfo.UNKNOWN;
  private LoggingLevel logLevel;
  private JsonObject advertised = new JsonObject();
  private long createdAt = System.currentTimeMillis();
  private io.vertx.core.Handler<McpSession> persistentChange;

  SessionEngine(McpServerImpl server, String id, Context context, MessageSink defaultSink, Principal principal) {
    this.server = server;
    this.id = id;
    this.context = context;
    this.defaultSink = defaultSink;
    this.principal = principal;
    this.pending = new PendingRequests(server.vertx(), server.options().getServerRequestTimeoutMs(),
        server.options().getMaxPendingServerRequests());
    this.notifier = new SessionNotifier(this, server.registry());
  }

  // ---- McpSession ----

  @Override
  public String id() {
    return id;
  }

  @Override
  public SessionState state() {
    return state;
  }

  @Override
  public Optional<ProtocolVersion> protocolVersion() {
    return Optional.ofNullable(version);
  }

  @Override
  public ClientInfo client() {
    return client;
  }

  @Override
  public Optional<LoggingLevel> logLevel() {
    return Optional.ofNullable(logLevel);
  }

  @Override
  public io.mcpvertx.spi.sessions.SessionRecord snapshot() {
    return new io.mcpvertx.spi.sessions.SessionRecord(id, state.name(), version == null ? null : version.id(),
        client.toJson(), logLevel == null ? null : logLevel.wireName(), notifier.subscriptions(),
        principal == null ? null : principal.toJson(), createdAt);
  }

  @Override
  public McpSession onPersistentChange(io.vertx.core.Handler<McpSession> handler) {
    onContext(() -> persistentChange = handler);
    return this;
  }

  /** What {@link #snapshot()} returns changed: tell whoever stores it. */
  private void persistentChanged() {
    io.vertx.core.Handler<McpSession> handler = persistentChange;
    if (handler != null && state != SessionState.CLOSED) {
      handler.handle(this);
    }
  }

  /** Takes over a stored session: its state, revision, client, log level and subscriptions. */
  void restore(io.mcpvertx.spi.sessions.SessionRecord record) {
    state = SessionState.valueOf(record.state());
    if (state == SessionState.CLOSED) {
      throw new IllegalArgumentException("A closed session cannot be restored");
    }
    version = record.protocolVersion() == null ? null : ProtocolVersion.fromId(record.protocolVersion())
        .orElseThrow(() -> new IllegalArgumentException("Unknown protocol version " + record.protocolVersion()));
    client = record.client().isEmpty() ? ClientInfo.UNKNOWN : ClientInfo.fromJson(record.client());
    logLevel = record.logLevel() == null ? null : LoggingLevel.fromWireName(record.logLevel()).orElse(null);
    advertised = version == null ? new JsonObject() : server.capabilities(version);
    createdAt = record.createdAt();
    notifier.restore(record.subscriptions());
  }

  @Override
  public int inFlightRequests() {
    return inFlight.size();
  }

  @Override
  public Future<Void> idle() {
    return callOnContext(() -> {
      if (inFlight.isEmpty() || state == SessionState.CLOSED) {
        return Future.succeededFuture();
      }
      if (idleWaiters == null) {
        idleWaiters = new ArrayList<>(1);
      }
      Promise<Void> promise = Promise.promise();
      idleWaiters.add(promise);
      return promise.future();
    });
  }

  private void wakeIdleWaiters() {
    if (idleWaiters != null && (inFlight.isEmpty() || state == SessionState.CLOSED)) {
      List<Promise<Void>> waiters = idleWaiters;
      idleWaiters = null;
      waiters.forEach(Promise::tryComplete);
    }
  }

  @Override
  public void handle(JsonRpcMessage message, MessageSink sink) {
    onContext(() -> dispatch(message, sink));
  }

  @Override
  public void handleBatch(List<Decoded> members, MessageSink sink) {
    onContext(() -> {
      if (version == null || !version.supports(ProtocolFeature.BATCHING)) {
        sink.send(new JsonRpcErrorResponse(null, new JsonRpcError(JsonRpcErrorCodes.INVALID_REQUEST,
            "Invalid Request: JSON-RPC batches are not supported by protocol version "
                + (version == null ? "(not initialized)" : version.id()))));
        return;
      }
      new BatchCollector(this, members, sink).run();
    });
  }

  @Override
  public Future<Void> close() {
    onContext(() -> {
      if (state == SessionState.CLOSED) {
        return;
      }
      state = SessionState.CLOSED;
      notifier.close();
      for (SessionRequestContext ctx : new ArrayList<>(inFlight.values())) {
        ctx.cancel("Session closed");
        ctx.sink().abandoned(ctx.requestId());
      }
      inFlight.clear();
      pending.failAll("Session closed");
      wakeIdleWaiters();
      closed.tryComplete();
    });
    return closed.future();
  }

  // ---- dispatch ----

  private void dispatch(JsonRpcMessage message, MessageSink sink) {
    if (state == SessionState.CLOSED) {
      if (message instanceof JsonRpcRequest request) {
        sink.send(error(request.id(), JsonRpcErrorCodes.INVALID_REQUEST, "Session is closed"));
      }
      return;
    }
    if (message instanceof JsonRpcRequest request) {
      try {
        onRequest(request, sink);
      } catch (RuntimeException e) {
        // Bad input we did not foresee must still get its one response, not leave the client waiting.
        sink.send(new JsonRpcErrorResponse(request.id(), ErrorMapper.toError(e, request.method())));
      }
    } else if (message instanceof JsonRpcNotification notification) {
      onNotification(notification, sink);
    } else if (message instanceof JsonRpcResponse response) {
      if (!pending.complete(response)) {
        LOG.log(Level.WARNING, "Session " + id + ": dropped a response to unknown request id " + response.id());
      }
    } else if (message instanceof JsonRpcErrorResponse errorResponse) {
      if (!pending.fail(errorResponse)) {
        LOG.log(Level.WARNING, "Session " + id + ": dropped an error response for unknown request id "
            + errorResponse.id() + ": " + errorResponse.error().message());
      }
    }
  }

  private void onRequest(JsonRpcRequest request, MessageSink sink) {
    // First, whatever the method: any answer to a reused id would be taken for the answer to the request in progress.
    if (inFlight.containsKey(request.id())) {
      sink.send(error(request.id(), JsonRpcErrorCodes.INVALID_REQUEST,
          "Invalid Request: id " + request.id() + " is already in use by a request in progress"));
      return;
    }
    McpMethod method = McpMethod.of(request.method());
    if (method == McpMethod.INITIALIZE) {
      initialize(request, sink);
      return;
    }
    if (method == McpMethod.PING) {
      sink.send(new JsonRpcResponse(request.id(), new JsonObject()));
      return;
    }
    if (state == SessionState.AWAITING_INITIALIZE) {
      sink.send(error(request.id(), JsonRpcErrorCodes.INVALID_REQUEST,
          "Invalid Request: the session is not initialized; send initialize first"));
      return;
    }
    if (method == null || !method.isRequest()) {
      sink.send(error(request.id(), JsonRpcErrorCodes.METHOD_NOT_FOUND, "Method not found: " + request.method()));
      return;
    }
    if (inFlight.size() >= server.options().getMaxConcurrentRequests()) {
      sink.send(error(request.id(), JsonRpcErrorCodes.SERVER_OVERLOADED,
          "Too many concurrent requests in this session (limit " + server.options().getMaxConcurrentRequests() + ")"));
      return;
    }
    JsonObject params = request.paramsOrEmpty();
    Object meta = params.getValue("_meta");
    if (meta != null && !(meta instanceof JsonObject)) {
      sink.send(error(request.id(), JsonRpcErrorCodes.INVALID_PARAMS, "Invalid params: \"_meta\" must be an object"));
      return;
    }
    SessionRequestContext ctx = new SessionRequestContext(this, request.id(), request.method(), (JsonObject) meta,
        sink);
    Future<JsonObject> result;
    try {
      result = serve(method, params, ctx);
    } catch (RuntimeException e) {
      result = Future.failedFuture(e);
    }
    if (result.isComplete() && !ctx.hasQueuedEmissions()) {
      respond(ctx, result);
    } else {
      inFlight.put(request.id(), ctx);
      result.onComplete(ar -> respondAfterEmissions(ctx, ar));
    }
  }

  /** Responds once the handler's queued progress and log messages have gone out (see afterEmissions). */
  private void respondAfterEmissions(SessionRequestContext ctx, io.vertx.core.AsyncResult<JsonObject> ar) {
    ctx.afterEmissions(() -> {
      inFlight.remove(ctx.requestId(), ctx);
      respond(ctx, ar);
      wakeIdleWaiters();
    });
  }

  private Future<JsonObject> serve(McpMethod method, JsonObject params, SessionRequestContext ctx) {
    FeatureDispatcher features = server.features();
    switch (method) {
      case LOGGING_SET_LEVEL:
        return setLevel(params);
      case TOOLS_LIST:
        return features.listTools(params, version);
      case TOOLS_CALL:
        // Without the tasks capability offered at initialize, task metadata is ignored, as the spec requires.
        return advertised.containsKey("tasks") ? server.legacyTasks().callTool(params, ctx, this)
            : features.callTool(params, ctx);
      case RESOURCES_LIST:
        return features.listResources(params, version);
      case RESOURCES_TEMPLATES_LIST:
        return features.listResourceTemplates(params, version);
      case RESOURCES_READ:
        return features.readResource(params, ctx);
      case RESOURCES_SUBSCRIBE:
        return notifier.subscribe(params, true).onSuccess(r -> persistentChanged());
      case RESOURCES_UNSUBSCRIBE:
        return notifier.subscribe(params, false).onSuccess(r -> persistentChanged());
      case PROMPTS_LIST:
        return features.listPrompts(params, version);
      case PROMPTS_GET:
        return features.getPrompt(params, ctx);
      case COMPLETION_COMPLETE:
        // 2024-11-05 had completion/complete but no capability to announce it: serve it when we have handlers.
        // Completions registered after initialize are served too, though the capability could not announce them.
        boolean offered = advertised.containsKey("completions")
            || !server.registry().snapshot().completions().isEmpty();
        if (!offered) {
          throw McpException.methodNotFound(method.wireName() + " (the server offers no completions)");
        }
        return features.complete(params, ctx);
      case TASKS_GET:
        return tasks(method).get(params, this);
      case TASKS_RESULT:
        return tasks(method).result(params, ctx, this);
      case TASKS_LIST:
        return tasks(method).list(params, this);
      case TASKS_CANCEL:
        return tasks(method).cancel(params, this);
      default:
        throw McpException.methodNotFound(method.wireName());
    }
  }

  /** The task methods exist from 2025-11-25 on. */
  private LegacyTasks tasks(McpMethod method) {
    if (!version.supports(ProtocolFeature.TASKS)) {
      throw McpException.methodNotFound(method.wireName() + " (not part of protocol version " + version.id() + ")");
    }
    return server.legacyTasks();
  }

  private void respond(SessionRequestContext ctx, io.vertx.core.AsyncResult<JsonObject> ar) {
    boolean cancelled = ctx.isCancelled();
    ctx.finish();
    if (cancelled || state == SessionState.CLOSED) {
      ctx.sink().abandoned(ctx.requestId());
      return;
    }
    if (ar.succeeded()) {
      ctx.sink().send(new JsonRpcResponse(ctx.requestId(), ar.result()));
    } else {
      ctx.sink().send(new JsonRpcErrorResponse(ctx.requestId(), ErrorMapper.toError(ar.cause(), ctx.method())));
    }
  }

  private void initialize(JsonRpcRequest request, MessageSink sink) {
    if (state != SessionState.AWAITING_INITIALIZE) {
      sink.send(error(request.id(), JsonRpcErrorCodes.INVALID_REQUEST,
          "Invalid Request: the session is already initialized"));
      return;
    }
    JsonObject params = request.paramsOrEmpty();
    if (!(params.getValue("protocolVersion") instanceof String requested)) {
      sink.send(error(request.id(), JsonRpcErrorCodes.INVALID_PARAMS,
          "Invalid params: initialize needs a string \"protocolVersion\""));
      return;
    }
    if (params.containsKey("capabilities") && !(params.getValue("capabilities") instanceof JsonObject)) {
      sink.send(error(request.id(), JsonRpcErrorCodes.INVALID_PARAMS,
          "Invalid params: \"capabilities\" must be an object"));
      return;
    }
    if (params.getValue("clientInfo") != null && !(params.getValue("clientInfo") instanceof JsonObject info
        && isStringOrAbsent(info, "name") && isStringOrAbsent(info, "version"))) {
      sink.send(error(request.id(), JsonRpcErrorCodes.INVALID_PARAMS,
          "Invalid params: \"clientInfo\" must be an object with a string \"name\" and \"version\""));
      return;
    }
    version = server.negotiate(requested);
    client = ClientInfo.fromInitialize(params);
    advertised = server.capabilities(version);
    state = SessionState.AWAITING_INITIALIZED;
    JsonObject result = new JsonObject()
        .put("protocolVersion", version.id())
        .put("capabilities", advertised)
        .put("serverInfo", server.options().getServerInfo().toJson(version));
    if (server.options().getInstructions() != null) {
      result.put("instructions", server.options().getInstructions());
    }
    // Stored before answered: a transport that holds the answer until the record is written lets the client go on
    // on another instance at once.
    persistentChanged();
    sink.send(new JsonRpcResponse(request.id(), result));
  }

  private void onNotification(JsonRpcNotification notification, MessageSink sink) {
    McpMethod method = McpMethod.of(notification.method());
    if (method != null && method.isRequest()) {
      // A request without an id: JSON-RPC would call it a notification, but these methods are never that.
      sink.send(new JsonRpcErrorResponse(null, new JsonRpcError(JsonRpcErrorCodes.INVALID_REQUEST,
          "Invalid Request: " + notification.method() + " is a request and needs an id")));
      return;
    }
    if (method == null) {
      LOG.log(Level.DEBUG, () -> "Session " + id + ": ignored unknown notification " + notification.method());
      return;
    }
    switch (method) {
      case INITIALIZED -> {
        if (state == SessionState.AWAITING_INITIALIZED) {
          state = SessionState.OPERATING;
          persistentChanged();
        } else if (state == SessionState.AWAITING_INITIALIZE) {
          LOG.log(Level.DEBUG, () -> "Session " + id + ": notifications/initialized before initialize, ignored");
        }
      }
      case CANCELLED -> {
        JsonObject params = notification.paramsOrEmpty();
        Object rawId = params.getValue("requestId");
        // Request ids are strings or integers: 1.5 names no request (it must not cancel request 1).
        JsonRpcId requestId = rawId instanceof String s ? JsonRpcId.of(s)
            : rawId instanceof Integer || rawId instanceof Long ? JsonRpcId.of(((Number) rawId).longValue()) : null;
        SessionRequestContext ctx = requestId == null ? null : inFlight.remove(requestId);
        if (ctx != null) {
          ctx.cancel(params.getValue("reason") instanceof String reason ? reason : null);
          // No response will come, and the handler may never finish: nothing should wait for it.
          ctx.sink().abandoned(requestId);
          wakeIdleWaiters();
        }
      }
      case ROOTS_LIST_CHANGED -> server.rootsChanged(this);
      default -> {
        // notifications/progress for our own requests: nothing waits on them.
      }
    }
  }

  private Future<JsonObject> setLevel(JsonObject params) {
    Object level = params.getValue("level");
    LoggingLevel parsed = LoggingLevel.fromWireName(level instanceof String s ? s : null)
        .orElseThrow(() -> McpException.invalidParams("Invalid params: unknown logging level " + level));
    logLevel = parsed;
    persistentChanged();
    return Future.succeededFuture(new JsonObject());
  }

  // ---- used by request contexts ----

  void sendLog(LoggingLevel level, String logger, Object data, MessageSink sink) {
    if (state == SessionState.CLOSED || (logLevel != null && !level.isAtLeast(logLevel))) {
      return;
    }
    JsonObject params = new JsonObject().put("level", level.wireName());
    if (logger != null) {
      params.put("logger", logger);
    }
    params.put("data", data);
    sink.send(new JsonRpcNotification("notifications/message", params));
  }

  Vertx vertx() {
    return server.vertx();
  }

  Context context() {
    return context;
  }

  McpServerImpl server() {
    return server;
  }

  PendingRequests pending() {
    return pending;
  }

  /** The capabilities the session was offered at initialize. */
  JsonObject advertised() {
    return advertised;
  }

  MessageSink defaultSink() {
    return defaultSink;
  }

  ProtocolVersion negotiated() {
    return version;
  }

  Optional<Principal> principal() {
    return Optional.ofNullable(principal);
  }

  /** Whether the calling thread is the session's event loop, running the session's context. */
  boolean onContextNow() {
    return Vertx.currentContext() == context && Context.isOnEventLoopThread();
  }

  /** Runs {@code action} on the session's context: now if already there, otherwise queued. */
  void onContext(Runnable action) {
    if (onContextNow()) {
      action.run();
    } else {
      context.runOnContext(v -> action.run());
    }
  }

  /** Like {@link #onContext} for an action that yields a future. */
  <T> Future<T> callOnContext(Supplier<Future<T>> action) {
    if (Vertx.currentContext() == context && Context.isOnEventLoopThread()) {
      return action.get();
    }
    Promise<T> promise = Promise.promise();
    context.runOnContext(v -> action.get().onComplete(promise));
    return promise.future();
  }

  private static boolean isStringOrAbsent(JsonObject json, String member) {
    Object value = json.getValue(member);
    return value == null || value instanceof String;
  }

  private static JsonRpcErrorResponse error(JsonRpcId id, int code, String message) {
    return new JsonRpcErrorResponse(id, new JsonRpcError(code, message));
  }
}
