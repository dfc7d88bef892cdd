package io.mcpvertx.server;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.client.ClientInfo;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.client.ElicitResult;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.client.Root;
import io.mcpvertx.server.client.SamplingRequest;
import io.mcpvertx.server.client.SamplingResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * What a handler knows about the request it serves, and what it may do while serving it: report progress, log
 * to the client, ask the client for input, notice cancellation.
 *
 * <p>Every method may be called from any thread; calls made off the session's context are moved onto it. The
 * futures returned complete on the session's context.
 */
public interface RequestContext {

  Vertx vertx();

  /** The negotiated protocol revision. */
  ProtocolVersion protocolVersion();

  /** The MCP session id, or null when the transport has none (stdio, stateless requests). */
  String sessionId();

  /** The id of the request being served. */
  JsonRpcId requestId();

  /** The request's {@code _meta}, never null. */
  JsonObject meta();

  /** Who the client is and what it declared it can do. */
  ClientInfo client();

  /** The authenticated caller; empty when the server runs without authorization. */
  Optional<Principal> principal();

  /**
   * Sends {@code notifications/progress} if the request asked for progress. Values must increase; a value that
   * does not is dropped (and logged), as the spec requires the sequence to be monotonic. JSON has no NaN or
   * infinities, so a non-finite value is dropped too, and a non-finite total is left out.
   *
   * @param total null when unknown
   * @param message null for none (sent only to revisions that carry it)
   */
  void progress(double progress, Double total, String message);

  /** Sends {@code notifications/message} if {@code level} passes the level the client set. */
  void log(LoggingLevel level, String logger, Object data);

  /** True once the client cancelled this request. A cancelled request gets no response. */
  boolean isCancelled();

  /** Called once, on the session's context, with the client's reason (possibly null), if it cancels. */
  RequestContext onCancel(Handler<String> handler);

  /**
   * Asks the user for input through the client. Fails with {@link McpException} when the
   * client did not declare the needed elicitation capability, or when it does not answer in time.
   */
  Future<ElicitResult> elicit(ElicitRequest request);

  /** Asks the client's model for a completion (sampling). Same failure rules as {@link #elicit}. */
  Future<SamplingResult> sample(SamplingRequest request);

  /** Asks the client for its roots. Same failure rules as {@link #elicit}. */
  Future<List<Root>> roots();

  /**
   * Like {@link #elicit(ElicitRequest)}, naming the request. Over the stateless revision the client answers
   * input requests by key, so a handler that asks more than once per call, or wants stable keys, names them;
   * unnamed requests are numbered in the order they are made. Sessions ignore the key.
   *
   * <p>Over 2026-07-28 (multi round-trip requests) a question without an answer fails its future; the runtime
   * answers the request with {@code input_required}, and when the client retries with its answers the handler
   * runs again from the start, this time getting the answers. So a handler should ask before it does anything
   * it must not do twice. Questions asked together (before waiting on any) come back in one round. A handler
   * that fails for another reason gets that error as the answer, not the open questions; an answer that is not
   * a result of its question is rejected with -32602. A {@code requestState} is not single-use: presented again
   * within its lifetime it re-runs the request with the answers it carries. Only tools/call, prompts/get and
   * resources/read can ask; elsewhere asking fails.
   */
  default Future<ElicitResult> elicit(String key, ElicitRequest request) {
    return elicit(request);
  }

  /** Like {@link #sample(SamplingRequest)}, naming the request (see {@link #elicit(String, ElicitRequest)}). */
  default Future<SamplingResult> sample(String key, SamplingRequest request) {
    return sample(request);
  }

  /** Like {@link #roots()}, naming the request (see {@link #elicit(String, ElicitRequest)}). */
  default Future<List<Root>> roots(String key) {
    return roots();
  }

  /** Tells the client a URL-mode elicitation finished (2025-11-25 {@code notifications/elicitation/complete}). */
  void elicitationComplete(String elicitationId);

  /**
   * Asks the transport to close the connection carrying this request's SSE stream without ending the stream
   * (SEP-1699, SSE polling): the client reconnects after {@code retryMs} with a {@code GET} and
   * {@code Last-Event-ID}, on any instance sharing the event store, and gets what the request sent meanwhile,
   * its response included. For long calls behind proxies that cut idle or long-lived connections, or to free a
   * connection while the handler waits. The handler runs on, and may call it again later.
   *
   * <p>Done only when the client can resume: a session of revision 2025-11-25 or later, on a transport with
   * resumable streams (Streamable HTTP with SSE responses; never stdio, 2026-07-28 stateless requests, whose
   * stream is the request, or a task's handler, which has no stream). Returns whether it was asked of the
   * transport; false means nothing happens. Once the response has gone out it has no effect.
   *
   * @param retryMs what the client waits before it reconnects (the SSE {@code retry} field), at least 0
   */
  default boolean closeSseStream(long retryMs) {
    return false;
  }

  /**
   * Runs blocking code off the event loop, on a worker or a virtual thread as the server is configured, and
   * completes on the session's context.
   */
  <T> Future<T> executeBlocking(Callable<T> work);
}
