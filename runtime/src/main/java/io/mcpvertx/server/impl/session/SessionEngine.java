package io.mcpvertx.server.impl.session;

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
import io.mcpvertx.server.impl.features.ErrorMapper;
import io.mcpvertx.server.impl.features.FeatureDispatcher;
import io.mcpvertx.server.impl.observe.RequestMeter;
import io.mcpvertx.server.observe.McpObserver;
import io.mcpvertx.server.impl.tracing.LogContext;
import io.mcpvertx.server.impl.tracing.SpanTargets;
import io.mcpvertx.server.impl.tracing.TracedSink;
import io.mcpvertx.server.impl.tracing.TracerSlot;
import io.mcpvertx.server.tracing.McpSpan;
import io.mcpvertx.server.tracing.McpTracer;
import io.mcpvertx.spi.sessions.SessionRecord;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.List;
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

  private static final Logger LOG = LoggerFactory.getLogger(SessionEngine.class);

  private final Sessions sessions;
  private final String id;
  private final Context context;
  private final MessageSink defaultSink;
  private final PendingRequests pending;
  private final InFlightRequests inFlight = new InFlightRequests();
  private final SessionNotifier notifier;
  private final Principal principal;
  private final Promise<Void> closed = Promise.promise();
  /** Read by {@link SessionTasks}, on this session's context. */
  final SessionTaskRuns taskRuns = new SessionTaskRuns();

  private SessionState state = SessionState.AWAITING_INITIALIZE;
  private ProtocolVersion version;
  private ClientInfo client = ClientInfo.UNKNOWN;
  private LoggingLevel logLevel;
  private JsonObject advertised = new JsonObject();
  private long createdAt = System.currentTimeMillis();
  /** When this engine started here (a restored session's createdAt is older: another instance created it). */
  private final long startedNanos = System.nanoTime();
  private Handler<McpSession> persistentChange;

  SessionEngine(Sessions sessions, String id, Context context, MessageSink defaultSink, Principal principal) {
    this.sessions = sessions;
    this.id = id;
    this.context = context;
    this.defaultSink = defaultSink;
    this.principal = principal;
    this.pending = new PendingRequests(sessions.vertx(), sessions.options().getServerRequestTimeoutMs(),
        sessions.options().getMaxPendingServerRequests());
    this.notifier = new SessionNotifier(this, sessions.registry());
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
  public SessionRecord snapshot() {
    return new SessionRecord(id, state.name(), version == null ? null : version.id(),
        client.toJson(), logLevel == null ? null : logLevel.wireName(), notifier.subscriptions(),
        principal == null ? null : principal.toJson(), createdAt);
  }

  @Override
  public McpSession onPersistentChange(Handler<McpSession> handler) {
    onContext(() -> persistentChange = handler);
    return this;
  }

  /** What {@link #snapshot()} returns changed: tell whoever stores it. */
  private void persistentChanged() {
    Handler<McpSession> handler = persistentChange;
    if (handler != null && state != SessionState.CLOSED) {
      handler.handle(this);
    }
  }

  /** Takes over a stored session: its state, revision, client, log level and subscriptions. */
  void restore(SessionRecord record) {
    state = SessionState.valueOf(record.state());
    if (state == SessionState.CLOSED) {
      throw new IllegalArgumentException("A closed session cannot be restored");
    }
    version = record.protocolVersion() == null ? null : ProtocolVersion.fromId(record.protocolVersion())
        .orElseThrow(() -> new IllegalArgumentException("Unknown protocol version " + record.protocolVersion()));
    client = record.client().isEmpty() ? ClientInfo.UNKNOWN : ClientInfo.fromJson(record.client());
    logLevel = record.logLevel() == null ? null : LoggingLevel.fromWireName(record.logLevel()).orElse(null);
    advertised = version == null ? new JsonObject() : sessions.capabilities().offered(version);
    createdAt = record.createdAt();
    notifier.restore(record.subscriptions());
  }

  @Override
  public int inFlightRequests() {
    return inFlight.size();
  }

  @Override
  public Future<Void> idle() {
    return callOnContext(() -> state == SessionState.CLOSED ? Future.succeededFuture() : inFlight.idle());
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
      for (SessionRequestContext ctx : inFlight.removeAll()) {
        ctx.cancel("Session closed");
        ctx.sink().abandoned(ctx.requestId());
      }
      pending.failAll("Session closed");
      inFlight.wakeIfIdle();
      closed.tryComplete();
      McpObserver observer = sessions.observer();
      if (observer != null) {
        observer.sessionClosed(version, System.nanoTime() - startedNanos);
      }
    });
    return closed.future();
  }

  @Override
  public Future<Void> endTasks(String why, boolean forGood, long timeoutMs) {
    return callOnContext(() -> sessions.tasks().endTasks(this, why, forGood, timeoutMs));
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
      TracerSlot tracing = sessions.tracing();
      McpTracer tracer = tracing.get();
      McpSpan span = McpSpan.NONE;
      if (tracer != McpTracer.NONE) {
        // The span ends when the request's answer passes through the sink, whichever path below answers it.
        span = tracer.start(SpanTargets.of(request, id, version == null ? null : version.id()));
        sink = new TracedSink(sink, request.id(), span);
      }
      int logged = LogContext.enter(tracing.instanceId(), id, request.id(), principal, span);
      try (McpSpan.Scope scope = span.makeCurrent()) {
        onRequest(request, sink);
      } catch (RuntimeException e) {
        // Bad input we did not foresee must still get its one response, not leave the client waiting.
        sink.send(new JsonRpcErrorResponse(request.id(), ErrorMapper.toError(e, request.method())));
      } finally {
        LogContext.exit(logged);
      }
    } else if (message instanceof JsonRpcNotification notification) {
      onNotification(notification, sink);
    } else if (message instanceof JsonRpcResponse response) {
      if (!pending.complete(response)) {
        LOG.warn("Session " + id + ": dropped a response to unknown request id " + response.id());
      }
    } else if (message instanceof JsonRpcErrorResponse errorResponse) {
      if (!pending.fail(errorResponse)) {
        LOG.warn("Session " + id + ": dropped an error response for unknown request id "
            + errorResponse.id() + ": " + errorResponse.error().message());
      }
    }
  }

  private void onRequest(JsonRpcRequest request, MessageSink sink) {
    JsonRpcError refused = RequestAdmission.idInUse(request, inFlight);
    if (refused != null) {
      LOG.warn("Session {}: refused a {} request: its id {} is in use by a request in progress", id,
          request.method(), request.id());
      refuse(request, sink, refused);
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
    refused = RequestAdmission.refusal(request, method, state, inFlight.size(),
        sessions.options().getMaxConcurrentRequests());
    if (refused != null) {
      refuse(request, sink, refused);
      return;
    }
    JsonObject params = request.paramsOrEmpty();
    SessionRequestContext ctx = new SessionRequestContext(this, request.id(), request.method(),
        (JsonObject) params.getValue("_meta"), sink);
    McpObserver observer = sessions.observer();
    long start = observer == null ? 0 : System.nanoTime();
    Future<JsonObject> result;
    try {
      result = serve(method, params, ctx);
    } catch (RuntimeException e) {
      result = Future.failedFuture(e);
    }
    if (observer != null) {
      ProtocolVersion served = version;
      result.onComplete(ar -> RequestMeter.served(observer, sessions.registry(), request.method(), params, served,
          start, ar));
    }
    if (result.isComplete() && !ctx.hasQueuedEmissions()) {
      respond(ctx, result);
    } else {
      inFlight.add(ctx);
      result.onComplete(ar -> respondAfterEmissions(ctx, ar));
    }
  }

  /** Answers a request refused before it is served ({@link RequestAdmission}), and reports it. */
  private void refuse(JsonRpcRequest request, MessageSink sink, JsonRpcError refusal) {
    McpObserver observer = sessions.observer();
    if (observer != null) {
      RequestMeter.refused(observer, sessions.registry(), request.method(), request.params(), version,
          refusal.code());
    }
    sink.send(new JsonRpcErrorResponse(request.id(), refusal));
  }

  /** Responds once the handler's queued progress and log messages have gone out (see afterEmissions). */
  private void respondAfterEmissions(SessionRequestContext ctx, AsyncResult<JsonObject> ar) {
    ctx.afterEmissions(() -> {
      inFlight.remove(ctx);
      respond(ctx, ar);
      inFlight.wakeIfIdle();
    });
  }

  private Future<JsonObject> serve(McpMethod method, JsonObject params, SessionRequestContext ctx) {
    FeatureDispatcher features = sessions.features();
    switch (method) {
      case LOGGING_SET_LEVEL:
        return setLevel(params);
      case TOOLS_LIST:
        return features.listTools(params, version);
      case TOOLS_CALL:
        // Without the tasks capability offered at initialize, task metadata is ignored, as the spec requires.
        return advertised.containsKey("tasks") ? sessions.tasks().callTool(params, ctx, this)
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
            || sessions.capabilities().completions();
        if (!offered) {
          throw McpException.methodNotFound(method.wireName() + " (the server offers no completions)");
        }
        return features.complete(params, ctx);
      case TASKS_GET:
        return tasks(method).get(params, ctx, this);
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
  private SessionTasks tasks(McpMethod method) {
    if (!version.supports(ProtocolFeature.TASKS)) {
      throw McpException.methodNotFound(method.wireName() + " (not part of protocol version " + version.id() + ")");
    }
    return sessions.tasks();
  }

  private void respond(SessionRequestContext ctx, AsyncResult<JsonObject> ar) {
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
    JsonRpcError problem = Handshake.problem(params);
    if (problem != null) {
      sink.send(new JsonRpcErrorResponse(request.id(), problem));
      return;
    }
    version = ProtocolVersion.negotiate(params.getString("protocolVersion"));
    client = ClientInfo.fromInitialize(params);
    advertised = sessions.capabilities().offered(version);
    state = SessionState.AWAITING_INITIALIZED;
    JsonObject result = Handshake.result(version, advertised, sessions.options());
    // Stored before answered: a transport that holds the answer until the record is written lets the client go on
    // on another instance at once.
    persistentChanged();
    McpObserver observer = sessions.observer();
    if (observer != null) {
      observer.sessionInitialized(version);
      observer.requestServed(request.method(), null, version, null, 0);
    }
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
      LOG.atDebug().log(() -> "Session " + id + ": ignored unknown notification " + notification.method());
      return;
    }
    switch (method) {
      case INITIALIZED -> {
        if (state == SessionState.AWAITING_INITIALIZED) {
          state = SessionState.OPERATING;
          persistentChanged();
        } else if (state == SessionState.AWAITING_INITIALIZE) {
          LOG.atDebug().log(() -> "Session " + id + ": notifications/initialized before initialize, ignored");
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
          inFlight.wakeIfIdle();
        }
      }
      case ROOTS_LIST_CHANGED -> sessions.rootsChanged(this);
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
    return sessions.vertx();
  }

  Context context() {
    return context;
  }

  Sessions sessions() {
    return sessions;
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
      // A hand-off to the session's context: the trace context of the caller (an event-bus message's) goes along.
      McpTracer tracer = sessions.tracing().get();
      Runnable run = tracer == McpTracer.NONE ? action : tracer.wrap(action);
      context.runOnContext(v -> run.run());
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

  private static JsonRpcErrorResponse error(JsonRpcId id, int code, String message) {
    return new JsonRpcErrorResponse(id, new JsonRpcError(code, message));
  }
}
