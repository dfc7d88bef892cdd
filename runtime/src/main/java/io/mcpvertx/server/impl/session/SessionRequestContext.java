package io.mcpvertx.server.impl.session;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.CancellationSignal;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.SessionState;
import io.mcpvertx.server.client.ClientInfo;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.client.ElicitResult;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.client.Root;
import io.mcpvertx.server.client.SamplingRequest;
import io.mcpvertx.server.client.SamplingResult;
import io.mcpvertx.server.impl.features.ProgressTracker;
import io.mcpvertx.server.impl.tracing.TracedSink;
import io.mcpvertx.server.tracing.McpSpan;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@link RequestContext} of a request served by a {@link SessionEngine}. Everything it emits goes to the
 * request's own sink, so a transport can put it on that request's stream.
 *
 * <p>Mutable state is touched only on the session's context; public methods move there first.
 */
final class SessionRequestContext implements RequestContext {

  private static final Logger LOG = LoggerFactory.getLogger(SessionRequestContext.class);

  private final SessionEngine session;
  private final JsonRpcId requestId;
  private final String method;
  private final JsonObject meta;
  private final ProgressTracker progress;
  private final MessageSink sink;
  /** Written on the session's context; volatile because blocking handlers poll it from their own thread. */
  private final CancellationSignal cancellation = new CancellationSignal();
  /** Emissions made from other threads and not yet run on the context; the response waits for them. */
  private final AtomicInteger queuedEmissions = new AtomicInteger();

  /** Where the requests for input of a task's handler go (2025-11-25 tasks); null for ordinary requests. */
  interface TaskAsker {
    Future<JsonObject> ask(String method, JsonObject params);
  }

  private final TaskAsker taskAsker;

  SessionRequestContext(SessionEngine session, JsonRpcId requestId, String method, JsonObject meta, MessageSink sink) {
    this(session, requestId, method, meta, sink, null);
  }

  /** The context of a task's handler: it emits through {@code sink} and asks through {@code taskAsker}. */
  SessionRequestContext(SessionEngine session, JsonRpcId requestId, String method, JsonObject meta, MessageSink sink,
      TaskAsker taskAsker) {
    this.taskAsker = taskAsker;
    this.session = session;
    this.requestId = requestId;
    this.method = method;
    this.meta = meta == null ? new JsonObject() : meta;
    this.progress = new ProgressTracker(this.meta);
    this.sink = sink;
  }

  @Override
  public Vertx vertx() {
    return session.vertx();
  }

  @Override
  public ProtocolVersion protocolVersion() {
    return session.negotiated();
  }

  @Override
  public String sessionId() {
    return session.id();
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
    return session.client();
  }

  @Override
  public Optional<Principal> principal() {
    return session.principal();
  }

  String method() {
    return method;
  }

  MessageSink sink() {
    return sink;
  }

  /**
   * Runs an emission (progress, log) on the session's context. One made from another thread is counted until
   * it runs, so that a handler that emits and then completes its future from that thread gets its emissions
   * out before the response (see {@link SessionEngine}).
   */
  private void emit(Runnable action) {
    if (session.onContextNow()) {
      action.run();
      return;
    }
    queuedEmissions.incrementAndGet();
    session.context().runOnContext(v -> {
      queuedEmissions.decrementAndGet();
      action.run();
    });
  }

  /**
   * Runs {@code action} on the session's context once the progress and log messages the handler sent from other
   * threads have gone out. They are queued on the context, and a future completed on a worker (executeBlocking)
   * may be seen complete before they run: what ends the request (its response, or its task's outcome) waits for them.
   */
  void afterEmissions(Runnable action) {
    if (session.onContextNow() && queuedEmissions.get() == 0) {
      action.run();
    } else {
      session.context().runOnContext(v -> afterEmissions(action));
    }
  }

  /** Whether emissions made from other threads are still queued for the session's context. */
  boolean hasQueuedEmissions() {
    return queuedEmissions.get() > 0;
  }

  @Override
  public void progress(double value, Double total, String message) {
    emit(() -> {
      if (cancellation.isOver()) {
        return;
      }
      JsonRpcNotification notification = progress.next(value, total, message,
          protocolVersion().supports(ProtocolFeature.PROGRESS_MESSAGE));
      if (notification != null) {
        sink.send(notification);
      } else if (progress.requested()) {
        LOG.atDebug().log(() -> "Dropped non-increasing or non-finite progress " + value + " for request "
            + requestId);
      }
    });
  }


  @Override
  public boolean closeSseStream(long retryMs) {
    if (retryMs < 0) {
      throw new IllegalArgumentException("retryMs must not be negative");
    }
    // A task's handler emits through the session's stream, not a request's; a revision before 2025-11-25 has no
    // priming event, so its client would not know where to resume.
    if (taskAsker != null || !sink.resumable() || !protocolVersion().supports(ProtocolFeature.SSE_PRIMING)) {
      return false;
    }
    emit(() -> {
      if (!cancellation.isOver()) {
        sink.closeSseStream(retryMs);
      }
    });
    return true;
  }

  @Override
  public void log(LoggingLevel level, String logger, Object data) {
    emit(() -> {
      if (!cancellation.isOver()) {
        session.sendLog(level, logger, data, sink);
      }
    });
  }

  @Override
  public boolean isCancelled() {
    return cancellation.isCancelled();
  }

  @Override
  public RequestContext onCancel(Handler<String> handler) {
    session.onContext(() -> cancellation.onCancel(handler));
    return this;
  }

  /** Marks the request cancelled and tells its handler; the caller has made sure no response follows. */
  void cancel(String reason) {
    // A task's requests are withdrawn by its task (SessionTasks): the id of the request that started the task may
    // since name another request of the client.
    if (cancellation.cancel(reason) && taskAsker == null) {
      // The client requests it was waiting for are withdrawn too; their futures fail with isCancelled() true.
      session.pending().cancelFor(requestId, "The request they were made for was cancelled");
    }
  }

  /** The response has been sent; later progress and logs from the handler are dropped. */
  void finish() {
    cancellation.finish();
  }

  @Override
  public Future<ElicitResult> elicit(ElicitRequest request) {
    return session.callOnContext(() -> {
      ClientInfo client = client();
      boolean ok = request.isUrlMode()
          ? protocolVersion().supports(ProtocolFeature.ELICITATION_URL) && client.supportsElicitationUrl()
          : protocolVersion().supports(ProtocolFeature.ELICITATION_FORM) && client.supportsElicitationForm();
      if (!ok) {
        return Future.failedFuture(missingCapability("elicitation" + (request.isUrlMode() ? ".url" : ""),
            new JsonObject().put("elicitation", request.isUrlMode()
                ? new JsonObject().put("url", new JsonObject()) : new JsonObject())));
      }
      return serverRequest("elicitation/create", request.toParams()).map(ElicitResult::fromJson);
    });
  }

  @Override
  public Future<SamplingResult> sample(SamplingRequest request) {
    return session.callOnContext(() -> {
      ClientInfo client = client();
      if (!client.supportsSampling()) {
        return Future.failedFuture(missingCapability("sampling", new JsonObject().put("sampling", new JsonObject())));
      }
      if (request.usesTools()
          && !(protocolVersion().supports(ProtocolFeature.SAMPLING_TOOLS) && client.supportsSamplingTools())) {
        return Future.failedFuture(missingCapability("sampling.tools",
            new JsonObject().put("sampling", new JsonObject().put("tools", new JsonObject()))));
      }
      return serverRequest("sampling/createMessage", request.params()).map(SamplingResult::new);
    });
  }

  @Override
  public Future<List<Root>> roots() {
    return session.callOnContext(() -> {
      if (!client().supportsRoots()) {
        return Future.failedFuture(missingCapability("roots", new JsonObject().put("roots", new JsonObject())));
      }
      return serverRequest("roots/list", null).map(result -> {
        List<Root> roots = new ArrayList<>();
        for (Object root : result.getJsonArray("roots", new JsonArray())) {
          if (root instanceof JsonObject json) {
            roots.add(Root.fromJson(json));
          }
        }
        return roots;
      });
    });
  }

  @Override
  public void elicitationComplete(String elicitationId) {
    session.onContext(() -> {
      if (protocolVersion().supports(ProtocolFeature.ELICITATION_URL) && client().supportsElicitationUrl()) {
        JsonRpcNotification complete = new JsonRpcNotification("notifications/elicitation/complete",
            new JsonObject().put("elicitationId", elicitationId));
        // A task's handler emits through the task's sink: the session's own stream, with the related-task _meta.
        (taskAsker != null ? sink : session.defaultSink()).send(complete);
      }
    });
  }

  @Override
  public <T> Future<T> executeBlocking(Callable<T> work) {
    return session.sessions().blockingRunner().run(session.context(), work);
  }

  private Future<JsonObject> serverRequest(String method, JsonObject params) {
    if (cancellation.isCancelled()) {
      return Future.failedFuture(new McpException(JsonRpcErrorCodes.REQUEST_CANCELLED, "The request was cancelled"));
    }
    if (session.state() == SessionState.AWAITING_INITIALIZED) {
      // The lifecycle forbids requests other than ping before the client said it is initialized.
      return Future.failedFuture(new McpException(JsonRpcErrorCodes.INVALID_REQUEST,
          "The client has not sent notifications/initialized yet; " + method + " must wait for it"));
    }
    if (taskAsker != null) {
      return taskAsker.ask(method, params == null ? new JsonObject() : params);
    }
    JsonObject sent = params == null ? new JsonObject() : params;
    if (sink instanceof TracedSink traced) {
      // The client's span for this request is a child of ours (SEP-414: trace context in params._meta).
      sent = sent.copy();
      JsonObject meta = sent.getValue("_meta") instanceof JsonObject m ? m : new JsonObject();
      traced.span().inject(meta);
      sent.put("_meta", meta);
    }
    return session.pending().send(method, sent, sink, requestId);
  }

  /** The span of the request being served; {@link McpSpan#NONE} without tracing. */
  public McpSpan span() {
    return sink instanceof TracedSink traced ? traced.span() : McpSpan.NONE;
  }

  private static McpException missingCapability(String name, JsonObject required) {
    return new McpException(JsonRpcErrorCodes.CLIENT_CAPABILITY_MISSING,
        "The client did not declare the " + name + " capability",
        new JsonObject().put("requiredCapabilities", required));
  }
}
