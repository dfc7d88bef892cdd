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

  /** The responses to a JSON-RPC batch, to be written as one array. */
  default void sendBatch(List<JsonRpcMessage> responses) {
    responses.forEach(this::send);
  }
}
