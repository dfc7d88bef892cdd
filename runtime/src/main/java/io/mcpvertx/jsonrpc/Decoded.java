package io.mcpvertx.jsonrpc;

import java.util.List;

/**
 * What {@link JsonRpcCodec#decode} made of one frame: a message, an error to send back in its place, or a batch
 * whose members are each one of those two.
 */
public sealed interface Decoded {

  /** A well-formed message. */
  record Message(JsonRpcMessage message) implements Decoded {
  }

  /** A frame or batch member that is not a valid message, with the error response it deserves. */
  record Invalid(JsonRpcErrorResponse response) implements Decoded {
  }

  /** A JSON array of members; whether batches are allowed is the session's call, not the codec's. */
  record Batch(List<Decoded> members) implements Decoded {
  }
}
