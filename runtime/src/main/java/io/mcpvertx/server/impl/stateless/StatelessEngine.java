package io.mcpvertx.server.impl.stateless;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.ServerInfo;
import io.mcpvertx.server.StatelessServer;
import io.mcpvertx.server.client.ClientInfo;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.impl.features.BlockingRunner;
import io.mcpvertx.server.impl.features.Capabilities;
import io.mcpvertx.server.impl.features.ErrorMapper;
import io.mcpvertx.server.impl.features.FeatureDispatcher;
import io.mcpvertx.server.impl.features.FeatureRegistry;
import io.mcpvertx.server.impl.observe.ObserverSlot;
import io.mcpvertx.server.impl.observe.RequestMeter;
import io.mcpvertx.server.impl.tasks.TaskEngine;
import io.mcpvertx.server.observe.McpObserver;
import io.mcpvertx.server.impl.tracing.LogContext;
import io.mcpvertx.server.impl.tracing.SpanTargets;
import io.mcpvertx.server.impl.tracing.TracedSink;
import io.mcpvertx.server.impl.tracing.TracerSlot;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tracing.McpSpan;
import io.mcpvertx.server.tracing.McpTracer;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The engine of the stateless generation (2026-07-28). Each request is complete in itself: its {@code _meta}
 * says who the client is and what it can do; nothing is remembered between requests except what the client
 * carries back in a signed {@code requestState}. Feature methods go through the same {@link FeatureDispatcher}
 * as sessions.
 *
 * <p>Thread-safe: it holds no per-request state; each request's state lives in its
 * {@link StatelessRequestContext}, confined to the context the request is served on.
 */
public final class StatelessEngine implements StatelessServer {

  private static final ProtocolVersion VERSION = ProtocolVersion.V2026_07_28;
  /** Methods of the 2025 generation that 2026-07-28 removed; they get "method not found" here. */
  private static final Set<String> REMOVED = Set.of("initialize", "ping", "logging/setLevel", "resources/subscribe",
      "resources/unsubscribe", "tasks/result", "tasks/list");
  /** The answers of a request that carries none: read, never written. */
  private static final JsonObject NO_RESPONSES = new JsonObject(Collections.emptyMap());

  private final Vertx vertx;
  private final TracerSlot tracing;
  private final McpServerOptions options;
  private final FeatureRegistry registry;
  private final FeatureDispatcher features;
  private final Capabilities capabilities;
  private final BlockingRunner blockingRunner;
  private final ExtensionTasks extensionTasks;
  private final RequestStates states;
  private final JsonArray supportedVersions;
  private final ObserverSlot observers;
  /** The {@code serverInfo} every answer carries, made once per {@link ServerInfo} the options hold. */
  private volatile ServerInfoMeta serverInfo;

  /** @param clock what dates {@code requestState} expiry (a seam for tests) */
  public StatelessEngine(Vertx vertx, McpServerOptions options, FeatureRegistry registry, FeatureDispatcher features,
      Capabilities capabilities, BlockingRunner blockingRunner, TaskEngine taskEngine, LongSupplier clock,
      ObserverSlot observers, TracerSlot tracing) {
    this.vertx = vertx;
    this.tracing = tracing;
    this.options = options;
    this.registry = registry;
    this.features = features;
    this.capabilities = capabilities;
    this.blockingRunner = blockingRunner;
    this.extensionTasks = new ExtensionTasks(taskEngine, registry, features);
    var statelessOptions = options.getStatelessOptions();
    this.states = new RequestStates(statelessOptions.getRequestStateKeys(), statelessOptions.getRequestStateTtlMs(),
        clock);
    JsonArray versions = new JsonArray();
    List<ProtocolVersion> all = List.of(ProtocolVersion.values());
    for (int i = all.size() - 1; i >= 0; i--) {
      versions.add(all.get(i).id());
    }
    this.supportedVersions = versions;
    this.observers = observers;
  }

  @Override
  public JsonRpcError validate(JsonRpcRequest request) {
    JsonRpcError refused = StatelessValidation.validate(request, supportedVersions);
    if (refused != null || !StatelessServer.isListen(request)) {
      return refused;
    }
    // The schema makes the filter a required object: without one there is nothing to subscribe to, and a stream
    // held open for nothing would only hold a connection.
    if (!(request.paramsOrEmpty().getValue("notifications") instanceof JsonObject filter)) {
      return new JsonRpcError(JsonRpcErrorCodes.INVALID_PARAMS,
          "Invalid params: subscriptions/listen needs params.notifications, an object naming what to receive");
    }
    if (filter.containsKey("taskIds") && !ExtensionTasks.declared(request.paramsOrEmpty().getJsonObject("_meta")
        .getJsonObject(META_CLIENT_CAPABILITIES))) {
      // Task notifications are the extension's: a client that did not declare it may not ask for them.
      return ExtensionTasks.missingExtension().error();
    }
    return null;
  }

  @Override
  public Optional<Tool> tool(String name) {
    FeatureRegistry.RegisteredTool registered = registry.snapshot().tools().get(name);
    return registered == null ? Optional.empty() : Optional.of(registered.tool());
  }

  @Override
  public Call serve(JsonRpcRequest request, Principal principal, MessageSink sink) {
    McpTracer tracer = tracing.get();
    McpSpan span = tracer == McpTracer.NONE ? McpSpan.NONE
        : tracer.start(SpanTargets.of(request, null, VERSION.id()));
    int logged = LogContext.enter(tracing.instanceId(), null, request.id(), principal, span);
    try (McpSpan.Scope scope = span.makeCurrent()) {
      Call call = serveOne(request, principal, sink, span);
      if (span != McpSpan.NONE) {
        call.response().onComplete(ar -> TracedSink.end(span, ar.succeeded() ? ar.result() : null));
      }
      return call;
    } finally {
      LogContext.exit(logged);
    }
  }

  private Call serveOne(JsonRpcRequest request, Principal principal, MessageSink sink, McpSpan span) {
    Context context = Vertx.currentContext();
    if (context == null) {
      throw new IllegalStateException("Stateless requests are served on a Vert.x context");
    }
    JsonObject params = request.paramsOrEmpty();
    JsonObject meta = params.getJsonObject("_meta");
    JsonObject info = meta.getValue(META_CLIENT_INFO) instanceof JsonObject i ? i : null;
    ClientInfo client = new ClientInfo(text(info, "name", "unknown"), text(info, "version", "0"),
        meta.getJsonObject(META_CLIENT_CAPABILITIES));
    LoggingLevel logLevel = meta.getValue(META_LOG_LEVEL) instanceof String level
        ? LoggingLevel.fromWireName(level).orElse(null) : null;
    String method = request.method();
    McpObserver observer = observers.get();
    long start = observer == null ? 0 : System.nanoTime();
    boolean multiRoundTrip = isMultiRoundTrip(method);
    JsonObject responses;
    // What a requestState is bound to: a digest of the call's arguments, so made only when one is read or sealed.
    Supplier<RequestStates.Binding> binding = new Supplier<>() {
      private RequestStates.Binding made;

      @Override
      public RequestStates.Binding get() {
        if (made == null) {
          made = RequestStates.Binding.of(principal == null ? null : principal.key(), method, params);
        }
        return made;
      }
    };
    try {
      responses = multiRoundTrip ? gatherResponses(params, binding) : NO_RESPONSES;
    } catch (McpException e) {
      Future<JsonRpcMessage> failed = Future.succeededFuture(new JsonRpcErrorResponse(request.id(), e.error()));
      return call(observed(observer, method, params, start, failed), null);
    }
    StatelessRequestContext ctx = new StatelessRequestContext(vertx, context, blockingRunner,
        request.id(), meta, client, principal, logLevel, responses, multiRoundTrip, sink);
    ctx.span(span);
    Future<JsonObject> outcome;
    try {
      outcome = dispatch(method, params, ctx);
    } catch (RuntimeException e) {
      outcome = Future.failedFuture(e);
    }
    Future<JsonRpcMessage> response =
        outcome.transform(ar -> Future.succeededFuture(answer(request, method, ctx, binding, ar)));
    return call(observed(observer, method, params, start, response), ctx);
  }

  /**
   * The JSON-RPC answer to a request whose handler ended with {@code ar}; never throws, so the request is always
   * answered (a failure while the answer is made is answered as the error it is).
   */
  private JsonRpcMessage answer(JsonRpcRequest request, String method, StatelessRequestContext ctx,
      Supplier<RequestStates.Binding> binding, AsyncResult<JsonObject> ar) {
    try {
      return answerOf(request, method, ctx, binding, ar);
    } catch (RuntimeException e) {
      return new JsonRpcErrorResponse(request.id(), ErrorMapper.toError(e, method));
    }
  }

  private JsonRpcMessage answerOf(JsonRpcRequest request, String method, StatelessRequestContext ctx,
      Supplier<RequestStates.Binding> binding, AsyncResult<JsonObject> ar) {
    ctx.finish();
    if (ctx.invalidAnswer() != null) {
      // A malformed answer is the client's protocol error, whatever the handler made of it.
      return new JsonRpcErrorResponse(request.id(), ctx.invalidAnswer().error());
    }
    // Questions still open make the answer input_required, unless the handler failed for another reason
    // (a missing client capability, a bug): answering them could not help, so that error is the answer.
    boolean otherFailure = ar.failed() && !(ar.cause() instanceof InputRequired);
    if (!ctx.inputRequests().isEmpty() && !otherFailure) {
      return new JsonRpcResponse(request.id(), inputRequired(ctx, binding));
    }
    if (ar.succeeded()) {
      return new JsonRpcResponse(request.id(), ar.result());
    }
    return new JsonRpcErrorResponse(request.id(), ErrorMapper.toError(ar.cause(), method));
  }

  /** Reports the answer to the observer, if there is one, when it is ready. */
  private Future<JsonRpcMessage> observed(McpObserver observer, String method, JsonObject params, long start,
      Future<JsonRpcMessage> response) {
    if (observer != null) {
      response.onSuccess(answer -> RequestMeter.answered(observer, registry, method, params, VERSION, start, answer));
    }
    return response;
  }

  @Override
  public Subscription listen(JsonRpcRequest request, MessageSink sink) {
    return listen(request, null, sink);
  }

  @Override
  public Subscription listen(JsonRpcRequest request, Principal principal, MessageSink sink) {
    return StatelessSubscription.open(registry, extensionTasks, principal, request, sink);
  }

  private Future<JsonObject> dispatch(String method, JsonObject params, StatelessRequestContext ctx) {
    var options = this.options.getStatelessOptions();
    switch (method) {
      case "server/discover":
        return Future.succeededFuture(complete(cacheable(discover(), options.getListTtlMs(),
            options.getListCacheScope())));
      case "tools/list":
        return features.listTools(params, VERSION).map(r -> complete(cacheable(r, options.getListTtlMs(),
            options.getListCacheScope())));
      case "prompts/list":
        return features.listPrompts(params, VERSION).map(r -> complete(cacheable(r, options.getListTtlMs(),
            options.getListCacheScope())));
      case "resources/list":
        return features.listResources(params, VERSION).map(r -> complete(cacheable(r, options.getListTtlMs(),
            options.getListCacheScope())));
      case "resources/templates/list":
        return features.listResourceTemplates(params, VERSION).map(r -> complete(cacheable(r,
            options.getListTtlMs(), options.getListCacheScope())));
      case "resources/read":
        return features.readResource(params, ctx).map(r -> complete(cacheable(r, options.getReadTtlMs(),
            options.getReadCacheScope())));
      case "tools/call":
        return extensionTasks.callTool(params, ctx)
            .map(r -> "task".equals(r.getValue("resultType")) ? withServerInfo(r) : complete(r));
      case "tasks/get":
        return extensionTasks.get(params, ctx.client().capabilities(), ctx.principal().orElse(null), ctx.span())
            .map(this::complete);
      case "tasks/update":
        return extensionTasks.update(params, ctx.client().capabilities(), ctx.principal().orElse(null), ctx.span())
            .map(this::complete);
      case "tasks/cancel":
        return extensionTasks.cancel(params, ctx.client().capabilities(), ctx.principal().orElse(null), ctx.span())
            .map(this::complete);
      case "prompts/get":
        return features.getPrompt(params, ctx).map(this::complete);
      case "completion/complete":
        if (!capabilities.completions()) {
          throw McpException.methodNotFound(method + " (the server offers no completions)");
        }
        return features.complete(params, ctx).map(this::complete);
      default:
        throw McpException.methodNotFound(REMOVED.contains(method)
            ? method + " (not part of protocol version " + VERSION.id() + ")" : method);
    }
  }

  private JsonObject discover() {
    JsonObject offered = capabilities.offered(VERSION);
    // The tasks extension only when some tool may run as a task: without one, no call could ever create a task.
    if (registry.snapshot().tools().values().stream().anyMatch(t -> t.tool().execution().allowsTasks())) {
      offered.put("extensions", new JsonObject().put(TaskEngine.EXTENSION, new JsonObject()));
    }
    JsonObject result = new JsonObject()
        .put("supportedVersions", supportedVersions.copy())
        .put("capabilities", offered);
    if (options.getInstructions() != null) {
      result.put("instructions", options.getInstructions());
    }
    return result;
  }

  /**
   * Answers from {@code requestState} (earlier rounds) and {@code inputResponses} (this round). Responses must be
   * objects; keys the handler never asks for are simply never read.
   */
  private JsonObject gatherResponses(JsonObject params, Supplier<RequestStates.Binding> binding) {
    if (!params.containsKey("requestState") && !params.containsKey("inputResponses")) {
      return NO_RESPONSES;
    }
    JsonObject responses = new JsonObject();
    if (params.containsKey("requestState")) {
      if (!(params.getValue("requestState") instanceof String state)) {
        throw McpException.invalidParams("Invalid params: requestState must be a string");
      }
      responses.mergeIn(states.open(state, binding.get()));
    }
    if (params.containsKey("inputResponses")) {
      if (!(params.getValue("inputResponses") instanceof JsonObject answers)) {
        throw McpException.invalidParams("Invalid params: inputResponses must be an object");
      }
      for (String key : answers.fieldNames()) {
        if (!(answers.getValue(key) instanceof JsonObject)) {
          throw McpException.invalidParams("Invalid params: inputResponses." + key + " must be an object");
        }
      }
      responses.mergeIn(answers);
    }
    return responses;
  }

  private JsonObject inputRequired(StatelessRequestContext ctx, Supplier<RequestStates.Binding> binding) {
    JsonObject requests = new JsonObject();
    ctx.inputRequests().forEach(requests::put);
    return withServerInfo(new JsonObject()
        .put("resultType", "input_required")
        .put("inputRequests", requests)
        .put("requestState", states.seal(binding.get(), ctx.answersUsed())));
  }

  private JsonObject complete(JsonObject result) {
    return withServerInfo(result.put("resultType", "complete"));
  }

  private static JsonObject cacheable(JsonObject result, long ttlMs, String scope) {
    return result.put("ttlMs", ttlMs).put("cacheScope", scope);
  }

  private JsonObject withServerInfo(JsonObject result) {
    JsonObject meta = result.getValue("_meta") instanceof JsonObject m ? m : new JsonObject();
    meta.put("io.modelcontextprotocol/serverInfo", serverInfoMeta());
    return result.put("_meta", meta);
  }

  /**
   * The server's {@code {name, version}}, shared by every answer: read-only, so an answer that is changed after
   * it was made cannot change the others. Made again if the options were given another {@link ServerInfo}.
   */
  private JsonObject serverInfoMeta() {
    ServerInfo info = options.getServerInfo();
    ServerInfoMeta made = serverInfo;
    if (made == null || made.source() != info) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("name", info.name());
      fields.put("version", info.version());
      made = new ServerInfoMeta(info, new JsonObject(Collections.unmodifiableMap(fields)));
      serverInfo = made;
    }
    return made.json();
  }

  private record ServerInfoMeta(ServerInfo source, JsonObject json) {
  }

  /**
   * A member as text, the way {@link JsonObject#getString} reads it (anything but a string by its
   * {@code toString()}), with one lookup; {@code fallback} when the object, the member or its value is missing.
   */
  private static String text(JsonObject object, String member, String fallback) {
    Object value = object == null ? null : object.getValue(member);
    return value instanceof String s ? s : value == null ? fallback : value.toString();
  }

  /** The requests that may be answered {@code input_required} and carry answers back. */
  private static boolean isMultiRoundTrip(String method) {
    return switch (method) {
      case "tools/call", "prompts/get", "resources/read" -> true;
      default -> false;
    };
  }

  private static Call call(Future<JsonRpcMessage> response, StatelessRequestContext ctx) {
    return new Call() {
      @Override
      public Future<JsonRpcMessage> response() {
        return response;
      }

      @Override
      public void cancel(String reason) {
        if (ctx != null) {
          ctx.cancel(reason);
        }
      }
    };
  }

  /** A notification tagged with a subscription, as listen streams carry them. */
  static JsonRpcNotification tagged(String method, JsonObject params, Object subscriptionId) {
    JsonObject p = params == null ? new JsonObject() : params;
    p.put("_meta", new JsonObject().put("io.modelcontextprotocol/subscriptionId", subscriptionId));
    return new JsonRpcNotification(method, p);
  }
}
