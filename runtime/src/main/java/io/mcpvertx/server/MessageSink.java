package io.mcpvertx.server;

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

  /** The responses to a JSON-RPC batch, to be written as one array. */
  default void sendBatch(List<JsonRpcMessage> responses) {
    responses.forEach(this::send);
  }
}
