package io.mcpvertx.server.impl.tasks;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.protocol.McpException;
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
import io.mcpvertx.server.impl.features.BlockingRunner;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * The {@link RequestContext} of a task handler run again after its first executor died ({@link FailoverReruns}):
 * no client is connected to this run. Progress and log messages go nowhere; asking the client anything (elicitation,
 * sampling, roots) fails with a message saying why, and so, as a rule, does the task. Cancellation (by the task's
 * owner through any instance, or its expiry) reaches the handler as usual.
 *
 * <p>Confined to {@link #context()}; calls from other threads are moved there.
 */
final class DetachedRequestContext implements RequestContext {

  private final Vertx vertx;
  private final Context context;
  private final BlockingRunner blocking;
  private final ProtocolVersion version;
  private final Principal principal;
  private final JsonRpcId requestId;
  private final CancellationSignal cancellation = new CancellationSignal();

  DetachedRequestContext(Vertx vertx, Context context, BlockingRunner blocking, ProtocolVersion version,
      Principal principal, String taskId) {
    this.vertx = vertx;
    this.context = context;
    this.blocking = blocking;
    this.version = version;
    this.principal = principal;
    this.requestId = JsonRpcId.of("rerun:" + taskId);
  }

  Context context() {
    return context;
  }

  /** The task was cancelled or expired, or this instance lost its lease. */
  void cancel(String reason) {
    onContext(() -> cancellation.cancel(reason));
  }

  void finish() {
    onContext(cancellation::finish);
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
    return null;
  }

  @Override
  public JsonRpcId requestId() {
    return requestId;
  }

  @Override
  public JsonObject meta() {
    return new JsonObject();
  }

  @Override
  public ClientInfo client() {
    return ClientInfo.UNKNOWN;
  }

  @Override
  public Optional<Principal> principal() {
    return Optional.ofNullable(principal);
  }

  @Override
  public void progress(double progress, Double total, String message) {
    // Nobody follows this run: the client that asked for progress was served by the instance that died.
  }

  @Override
  public void log(LoggingLevel level, String logger, Object data) {
    // Likewise: no connection carries log messages for a re-run task.
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
    return noClient("elicitation/create");
  }

  @Override
  public Future<SamplingResult> sample(SamplingRequest request) {
    return noClient("sampling/createMessage");
  }

  @Override
  public Future<List<Root>> roots() {
    return noClient("roots/list");
  }

  @Override
  public void elicitationComplete(String elicitationId) {
  }

  @Override
  public <T> Future<T> executeBlocking(Callable<T> work) {
    return blocking.run(context, work);
  }

  private static <T> Future<T> noClient(String method) {
    return Future.failedFuture(new McpException(JsonRpcErrorCodes.INTERNAL_ERROR, "The task is being run again "
        + "after the server instance running it stopped; no client is connected to answer " + method));
  }

  private void onContext(Runnable action) {
    if (Vertx.currentContext() == context && Context.isOnEventLoopThread()) {
      action.run();
    } else {
      context.runOnContext(v -> action.run());
    }
  }
}
