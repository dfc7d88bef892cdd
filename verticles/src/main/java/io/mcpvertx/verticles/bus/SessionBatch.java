package io.mcpvertx.verticles.bus;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import java.util.List;

/**
 * A JSON-RPC batch on the event bus: inbound, the decoded members for a session to serve; outbound, the
 * responses to write back as one array.
 */
public record SessionBatch(List<Decoded> members) {

  public SessionBatch {
    members = List.copyOf(members);
  }

  /** An outbound batch of responses. */
  public static SessionBatch ofResponses(List<JsonRpcMessage> responses) {
    return new SessionBatch(responses.stream().<Decoded>map(Decoded.Message::new).toList());
  }

  /** The members as messages; invalid members become their error responses. */
  public List<JsonRpcMessage> messages() {
    return members.stream().map(m -> m instanceof Decoded.Message msg ? msg.message()
        : (JsonRpcMessage) ((Decoded.Invalid) m).response()).toList();
  }
}
