package io.mcpvertx.verticles.impl;

import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.server.MessageSink;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The requests a session runs for exchange streams of other instances (their POSTs), by stream id: one entry per
 * request in progress, so bounded by the session's concurrent-request limit; an entry goes when its request is
 * answered or abandoned. What a session needs them for: to recognise a second delivery of the same exchange's
 * request, to hand a request sent again through another instance to that instance's exchange, and to silence and
 * cancel the request whose stream's instance was lost.
 *
 * <p>Confined to the session verticle's context.
 */
final class StreamedRequests {

  private final Map<String, Sink> byStream = new HashMap<>();

  /** Whether {@code body} is the request in progress for the exchange stream {@code stream}. */
  boolean isRunning(String stream, Object body) {
    Sink running = byStream.get(stream);
    return running != null && body instanceof JsonRpcRequest request && running.request.id().equals(request.id());
  }

  /** Tracks {@code request} of {@code stream}; the session sends its output to the sink returned. */
  MessageSink track(String stream, JsonRpcRequest request, MessageSink target) {
    Sink sink = new Sink(stream, request, target);
    byStream.put(stream, sink);
    return sink;
  }

  /**
   * Moves the request in progress for another exchange stream to a new exchange, when {@code request} is that
   * request sent again: the same id, method and params. That is what a client or a load balancer does when the
   * instance that held the POST went away (nginx's {@code proxy_next_upstream ... non_idempotent}): the request
   * goes on here, and what it sends from now on, its answer included, goes to {@code target}. The first exchange
   * is told the request was abandoned (a live one lets its client go), and the instance that held it can no
   * longer cancel it. A request with the same id that differs is not moved: the session refuses it as an id in use.
   *
   * @param stream the new exchange's stream, or null when it is not over the bus (an exchange in this JVM)
   * @return whether the request was moved; if so it must not be handled again
   */
  boolean adopt(String stream, JsonRpcRequest request, MessageSink target) {
    if (byStream.isEmpty()) {
      return false;
    }
    Sink running = null;
    for (Sink sink : byStream.values()) {
      if (sink.request.id().equals(request.id())) {
        running = sink;
        break;
      }
    }
    if (running == null || running.stream.equals(stream) || !sameRequest(running.request, request)) {
      return false;
    }
    byStream.remove(running.stream, running);
    MessageSink before = running.target;
    running.target = target;
    running.stream = stream;
    if (stream != null) {
      byStream.put(stream, running);
    }
    before.abandoned(request.id());
    return true;
  }

  private static boolean sameRequest(JsonRpcRequest a, JsonRpcRequest b) {
    return a.method().equals(b.method()) && a.paramsOrEmpty().equals(b.paramsOrEmpty());
  }

  /**
   * Forgets the request of {@code stream}, and nothing more of it goes to its producer: were that alive after all
   * (it lost its lease, say), it must not end the stream the client now follows elsewhere, where the request is
   * answered with an error.
   *
   * @return the request's id, or null when none runs for that stream (answered meanwhile, or never seen here)
   */
  JsonRpcId lose(String stream) {
    Sink lost = byStream.remove(stream);
    if (lost == null) {
      return null;
    }
    lost.lost = true;
    return lost.request.id();
  }

  /**
   * A request's sink that forgets its entry once the request is answered, and sends nothing once it is lost. Its
   * stream and target change when the request is {@linkplain #adopt adopted} by another exchange; the stream is
   * null once that exchange is not over the bus.
   */
  private final class Sink implements MessageSink {

    private final JsonRpcRequest request;
    private String stream;
    private MessageSink target;
    private boolean lost;

    Sink(String stream, JsonRpcRequest request, MessageSink target) {
      this.stream = stream;
      this.request = request;
      this.target = target;
    }

    private void forget() {
      if (stream != null) {
        byStream.remove(stream, this);
      }
    }

    @Override
    public void send(JsonRpcMessage message) {
      if (lost) {
        return;
      }
      JsonRpcId answered = message instanceof JsonRpcResponse response ? response.id()
          : message instanceof JsonRpcErrorResponse error ? error.id() : null;
      if (request.id().equals(answered)) {
        forget();
      }
      target.send(message);
    }

    @Override
    public void sendBatch(List<JsonRpcMessage> responses) {
      if (!lost) {
        target.sendBatch(responses);
      }
    }

    @Override
    public void abandoned(JsonRpcId id) {
      if (lost) {
        return;
      }
      if (request.id().equals(id)) {
        forget();
      }
      target.abandoned(id);
    }

    @Override
    public boolean resumable() {
      return target.resumable();
    }

    @Override
    public void closeSseStream(long retryMs) {
      if (!lost) {
        target.closeSseStream(retryMs);
      }
    }
  }
}
