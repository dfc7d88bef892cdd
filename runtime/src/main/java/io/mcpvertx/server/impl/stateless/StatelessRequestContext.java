package io.mcpvertx.server.impl.stateless;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.CancellationSignal;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.client.ClientInfo;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.client.ElicitResult;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.client.Root;
import io.mcpvertx.server.client.SamplingRequest;
import io.mcpvertx.server.client.SamplingResult;
import io.mcpvertx.server.impl.features.BlockingRunner;
import io.mcpvertx.server.impl.features.ProgressTracker;
import io.mcpvertx.server.tracing.McpSpan;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * The {@link RequestContext} of a 2026-07-28 request. There is no session and the server may not send requests
 * to the client, so {@link #elicit}, {@link #sample} and {@link #roots} are answered from the input responses the
 * client sent with this request (or an earlier round, carried in {@code requestState}); a question without an
 * answer is recorded, and the engine turns the call into an {@code input_required} result. The same handler code
 * works over sessions, where the same calls become server-to-client requests. Only requests that may be
 * answered with {@code input_required} (tools/call, prompts/get, resources/read) can ask; elsewhere asking fails.
 *
 * <p>Confined to the context the request is served on.
 */
final class StatelessRequestContext implements RequestContext {

  private static final String ELICIT = "elicitation/create";
  private static final String SAMPLE = "sampling/createMessage";
  private static final String ROOTS = "roots/list";
  private static final Set<String> ELICIT_ACTIONS = Set.of("accept", "decline", "cancel");

  private final Vertx vertx;
  private final Context context;
  private final BlockingRunner blocking;
  private final JsonRpcId requestId;
  private final JsonObject meta;
  private final ClientInfo client;
  private final Principal principal;
  private final LoggingLevel logLevel;
  private final JsonObject responses;
  private final MessageSink sink;
  private final ProgressTracker progress;
  private final boolean mayAsk;
  /** Made on the first question left without an answer: most requests ask nothing. */
  private Map<String, JsonObject> inputRequests;
  /** Made on the first answer read. */
  private Set<String> answered;
  private McpException invalidAnswer;
  private int unnamed;
  private final CancellationSignal cancellation = new CancellationSignal();
  /** Set when the call became a task: from then on questions go to the task, not into input_required. */
  private volatile TaskAsker taskAsker;
  /** The request's span, kept with a task the request creates; set right after construction. */
  private McpSpan span = McpSpan.NONE;

  /** Where a handler's questions go once its call is a task (the tasks extension's inputRequests). */
  interface TaskAsker {
    Future<JsonObject> ask(String key, String method, JsonObject params);
  }

  StatelessRequestContext(Vertx vertx, Context context, BlockingRunner blocking, JsonRpcId requestId, JsonObject meta,
      ClientInfo client, Principal principal, LoggingLevel logLevel, JsonObject responses, boolean mayAsk,
      MessageSink sink) {
    this.vertx = vertx;
    this.context = context;
    this.blocking = blocking;
    this.requestId = requestId;
    this.meta = meta;
    this.client = client;
    this.principal = principal;
    this.logLevel = logLevel;
    this.responses = responses;
    this.mayAsk = mayAsk;
    this.sink = sink;
    this.progress = new ProgressTracker(meta);
  }

  Context context() {
    return context;
  }

  /** Questions asked without an answer, by key, as {@code {method, params}}. */
  Map<String, JsonObject> inputRequests() {
    return inputRequests == null ? Map.of() : inputRequests;
  }

  /** The first answer that was not a valid result of the question it answers, or null. */
  McpException invalidAnswer() {
    return invalidAnswer;
  }

  /**
   * The answers the handler read in this run (given in this round or carried from an earlier one): what the
   * next round's {@code requestState} carries. Answers to questions never asked are not carried along.
   */
  JsonObject answersUsed() {
    JsonObject used = new JsonObject();
    if (answered != null) {
      answered.forEach(key -> used.put(key, responses.getValue(key)));
    }
    return used;
  }

  /**
   * The client went away from the request's stream. Before the call became a task that cancels it; afterwards
   * the task lives on, and only {@link #cancelTask} stops it.
   */
  void cancel(String reason) {
    if (taskAsker == null) {
      cancellation.cancel(reason);
    }
  }

  /** The task this call became was cancelled (or expired). */
  void cancelTask(String reason) {
    onContext(() -> cancellation.cancel(reason));
  }

  /**
   * The call is now a task: questions are asked through {@code asker}, and progress and log messages are no
   * longer sent (the extension carries neither on tasks).
   */
  void promote(TaskAsker asker) {
    this.taskAsker = asker;
  }

  boolean promoted() {
    return taskAsker != null;
  }

  /** The response has been sent; a call that became a task keeps running, and can still be cancelled. */
  void finish() {
    if (taskAsker == null) {
      cancellation.finish();
    }
  }

  /** The task's handler finished. */
  void finishTask() {
    onContext(cancellation::finish);
  }

  @Override
  public Vertx vertx() {
    return vertx;
  }

  @Override
  public ProtocolVersion protocolVersion() {
    return ProtocolVersion.V2026_07_28;
  }

  @Override
  public String sessionId() {
    return null;
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
  public void progress(double value, Double total, String message) {
    onContext(() -> {
      JsonRpcNotification notification = cancellation.isOver() || taskAsker != null ? null
          : progress.next(value, total, message, true);
      if (notification != null) {
        sink.send(notification);
      }
    });
  }


  @Override
  public void log(LoggingLevel level, String logger, Object data) {
    onContext(() -> {
      // Without a logLevel in the request's _meta, the client did not ask for logs: none may be sent.
      if (logLevel == null || !level.isAtLeast(logLevel) || cancellation.isOver() || taskAsker != null) {
        return;
      }
      JsonObject params = new JsonObject().put("level", level.wireName());
      if (logger != null) {
        params.put("logger", logger);
      }
      sink.send(new JsonRpcNotification("notifications/message", params.put("data", data)));
    });
  }

  @Override
  public boolean isCancelled() {
    return cancellation.isCancelled();
  }

  @Override
  public RequestContext onCancel(Handler<String> handler) {
    onContext(() -> cancellation.onCancel(handler));
    return this;
  }

  @Override
  public Future<ElicitResult> elicit(ElicitRequest request) {
    return elicit("elicitation-" + (++unnamed), request);
  }

  @Override
  public Future<ElicitResult> elicit(String key, ElicitRequest request) {
    boolean declared = request.isUrlMode() ? client.supportsElicitationUrl() : client.supportsElicitationForm();
    if (!declared) {
      return Future.failedFuture(missing(new JsonObject().put("elicitation", request.isUrlMode()
          ? new JsonObject().put("url", new JsonObject()) : new JsonObject())));
    }
    return ask(key, ELICIT, request.toParams()).map(ElicitResult::fromJson);
  }

  @Override
  public Future<SamplingResult> sample(SamplingRequest request) {
    return sample("sampling-" + (++unnamed), request);
  }

  @Override
  public Future<SamplingResult> sample(String key, SamplingRequest request) {
    if (!client.supportsSampling() || (request.usesTools() && !client.supportsSamplingTools())) {
      return Future.failedFuture(missing(new JsonObject().put("sampling", request.usesTools()
          ? new JsonObject().put("tools", new JsonObject()) : new JsonObject())));
    }
    return ask(key, SAMPLE, request.params()).map(SamplingResult::new);
  }

  @Override
  public Future<List<Root>> roots() {
    return roots("roots-" + (++unnamed));
  }

  @Override
  public Future<List<Root>> roots(String key) {
    if (!client.supportsRoots()) {
      return Future.failedFuture(missing(new JsonObject().put("roots", new JsonObject())));
    }
    return ask(key, ROOTS, new JsonObject()).map(result -> {
      List<Root> roots = new ArrayList<>();
      for (Object root : result.getJsonArray("roots", new JsonArray())) {
        if (root instanceof JsonObject json) {
          roots.add(Root.fromJson(json));
        }
      }
      return roots;
    });
  }

  @Override
  public void elicitationComplete(String elicitationId) {
    // 2026-07-28 has no session stream to carry it; URL-mode completion is observed by the client's retry.
  }

  @Override
  public <T> Future<T> executeBlocking(Callable<T> work) {
    return blocking.run(context, work);
  }

  /** The client's answer under {@code key}, or a recorded question and an {@link InputRequired} failure. */
  McpSpan span() {
    return span;
  }

  void span(McpSpan span) {
    this.span = span;
  }

  private Future<JsonObject> ask(String key, String method, JsonObject params) {
    if (!mayAsk) {
      // Only tools/call, prompts/get and resources/read may be answered with input_required.
      return Future.failedFuture(McpException.internal("Internal error: the handler asked the client for input ("
          + method + ") while serving a request that cannot carry input requests"));
    }
    Object answer = responses.getValue(key);
    if (answer instanceof JsonObject json) {
      String problem = answerProblem(method, json);
      if (problem != null) {
        McpException invalid = McpException.invalidParams("Invalid params: inputResponses." + key + " " + problem);
        if (invalidAnswer == null) {
          invalidAnswer = invalid;
        }
        return Future.failedFuture(invalid);
      }
      if (answered == null) {
        answered = new LinkedHashSet<>();
      }
      answered.add(key);
      return Future.succeededFuture(json);
    }
    // Asked after the call became a task: the question goes to the task's inputRequests.
    TaskAsker asker = taskAsker;
    if (asker != null) {
      return asker.ask(key, method, params).compose(json -> {
        String problem = answerProblem(method, json);
        return problem == null ? Future.succeededFuture(json)
            : Future.failedFuture(McpException.invalidParams("Invalid params: inputResponses." + key + " " + problem));
      });
    }
    if (inputRequests == null) {
      inputRequests = new LinkedHashMap<>();
    }
    inputRequests.put(key, new JsonObject().put("method", method).put("params", params));
    return Future.failedFuture(new InputRequired(key));
  }

  /** Why {@code answer} is not a result of {@code method} (ElicitResult, CreateMessageResult, ListRootsResult). */
  static String answerProblem(String method, JsonObject answer) {
    switch (method) {
      case ELICIT -> {
        if (!(answer.getValue("action") instanceof String action) || !ELICIT_ACTIONS.contains(action)) {
          return "is not an elicitation result: action must be accept, decline or cancel";
        }
        if (answer.containsKey("content") && !(answer.getValue("content") instanceof JsonObject)) {
          return "is not an elicitation result: content must be an object";
        }
      }
      case SAMPLE -> {
        Object content = answer.getValue("content");
        if (!(answer.getValue("role") instanceof String role) || !(role.equals("assistant") || role.equals("user"))
            || !(answer.getValue("model") instanceof String)
            || !(content instanceof JsonObject || content instanceof JsonArray)) {
          return "is not a sampling result: role, model and content are required";
        }
      }
      case ROOTS -> {
        if (!(answer.getValue("roots") instanceof JsonArray roots)) {
          return "is not a roots result: roots must be an array";
        }
        for (Object root : roots) {
          if (!(root instanceof JsonObject r) || !(r.getValue("uri") instanceof String)) {
            return "is not a roots result: every root needs a uri";
          }
        }
      }
      default -> {
      }
    }
    return null;
  }

  private static McpException missing(JsonObject required) {
    return new McpException(JsonRpcErrorCodes.CLIENT_CAPABILITY_MISSING,
        "The request needs a client capability it did not declare",
        new JsonObject().put("requiredCapabilities", required));
  }

  private void onContext(Runnable action) {
    if (Vertx.currentContext() == context && Context.isOnEventLoopThread()) {
      action.run();
    } else {
      context.runOnContext(v -> action.run());
    }
  }
}
