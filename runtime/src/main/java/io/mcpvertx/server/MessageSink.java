package io.mcpvertx.server;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import java.util.List;

/**
 * Where a session sends what it emits. A transport gives the session one sink per inbound request (so replies,
 * progress and server-to-client requests made while serving it travel with it) and one default sink for
 * messages that belong to no request.
 */
@FunctionalInterface
public interface MessageSink {

  void send(JsonRpcMessage message);

  /**
   * The request with this id ended without a response: the client cancelled it, or the session closed. A
   * transport that holds a connection open for the response can let it go.
   */
  default void abandoned(JsonRpcId requestId) {
  }

  /**
   * Whether the transport behind this sink can close the connection of its stream and let the client resume
   * the stream ({@link #closeSseStream}); false for transports without resumable streams.
   */
  default boolean resumable() {
    return false;
  }

  /**
   * Closes the connection carrying this sink's stream after a {@code retry} of {@code retryMs}, without ending
   * the stream: what is sent later is kept for the client, which resumes with {@code Last-Event-ID} (SEP-1699).
   * Called only when {@link #resumable()}, after what was sent before it, on the session's context.
   */
  default void closeSseStream(long retryMs) {
  }

  /** The responses to a JSON-RPC batch, to be written as one array. */
  default void sendBatch(List<JsonRpcMessage> responses) {
    responses.forEach(this::send);
  }
}
