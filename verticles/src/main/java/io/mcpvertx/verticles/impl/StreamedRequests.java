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
 * request, and to silence and cancel the request whose stream's instance was lost.
 *
 * <p>Confined to the session verticle's context.
 */
final class StreamedRequests {

  private final Map<String, Sink> byStream = new HashMap<>();

  /** Whether {@code body} is the request in progress for the exchange stream {@code stream}. */
  boolean isRunning(String stream, Object body) {
    Sink running = byStream.get(stream);
    return running != null && body instanceof JsonRpcRequest request && running.requestId.equals(request.id());
  }

  /** Tracks request {@code id} of {@code stream}; the session sends its output to the sink returned. */
  MessageSink track(String stream, JsonRpcId id, MessageSink target) {
    Sink sink = new Sink(stream, id, target);
    byStream.put(stream, sink);
    return sink;
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
    return lost.requestId;
  }

  /** A request's sink that forgets its entry once the request is answered, and sends nothing once it is lost. */
  private final class Sink implements MessageSink {

    private final String stream;
    private final JsonRpcId requestId;
    private final MessageSink target;
    private boolean lost;

    Sink(String stream, JsonRpcId requestId, MessageSink target) {
      this.stream = stream;
      this.requestId = requestId;
      this.target = target;
    }

    @Override
    public void send(JsonRpcMessage message) {
      if (lost) {
        return;
      }
      JsonRpcId answered = message instanceof JsonRpcResponse response ? response.id()
          : message instanceof JsonRpcErrorResponse error ? error.id() : null;
      if (requestId.equals(answered)) {
        byStream.remove(stream, this);
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
      if (requestId.equals(id)) {
        byStream.remove(stream, this);
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
