package io.mcpvertx.server.impl.session;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.SessionState;
import java.util.ArrayList;
import java.util.List;

/**
 * Serves the members of one JSON-RPC batch and gathers their responses into one array, as JSON-RPC requires.
 * Notifications and server-to-client requests emitted meanwhile pass straight through. Confined to the
 * session's context.
 */
final class BatchCollector {

  /** The sink one batch member's request is served with: it keeps the response, forwards the rest. */
  final class Slot implements MessageSink {
    private final JsonRpcId id;
    private boolean done;

    private Slot(JsonRpcId id) {
      this.id = id;
    }

    @Override
    public void send(JsonRpcMessage message) {
      JsonRpcId responseId = message instanceof JsonRpcResponse r ? r.id()
          : message instanceof JsonRpcErrorResponse e ? e.id() : null;
      if (!done && id.equals(responseId)) {
        done = true;
        responses.add(message);
        completed();
      } else {
        out.send(message);
      }
    }

    /** The request ends without a response (it was cancelled); the batch no longer waits for it. */
    @Override
    public void abandoned(JsonRpcId requestId) {
      if (!done) {
        done = true;
        completed();
      }
    }
  }

  private final SessionEngine session;
  private final boolean startedOpen;
  private final List<Decoded> members;
  private final MessageSink out;
  private final List<JsonRpcMessage> responses = new ArrayList<>();
  private int awaiting;
  private boolean dispatched;
  private boolean flushed;

  BatchCollector(SessionEngine session, List<Decoded> members, MessageSink out) {
    this.session = session;
    this.startedOpen = session.state() != SessionState.CLOSED;
    this.members = members;
    this.out = out;
  }

  void run() {
    for (Decoded member : members) {
      if (member instanceof Decoded.Message m && m.message() instanceof JsonRpcRequest r
          && !r.method().equals("initialize")) {
        awaiting++;
      }
    }
    for (Decoded member : members) {
      if (member instanceof Decoded.Invalid invalid) {
        responses.add(invalid.response());
      } else if (member instanceof Decoded.Message m) {
        if (m.message() instanceof JsonRpcRequest request) {
          if (request.method().equals("initialize")) {
            responses.add(new JsonRpcErrorResponse(request.id(), new JsonRpcError(JsonRpcErrorCodes.INVALID_REQUEST,
                "Invalid Request: initialize must not be part of a JSON-RPC batch")));
          } else {
            session.handle(request, new Slot(request.id()));
          }
        } else {
          // Notifications and responses get no entry, except a request sent without an id: its error belongs in
          // the array like any other member's. The session serves it right away, since we are on its context.
          session.handle(m.message(), this::collectError);
        }
      }
    }
    dispatched = true;
    if (awaiting == 0) {
      flush();
    }
  }

  private void collectError(JsonRpcMessage message) {
    if (message instanceof JsonRpcErrorResponse && !flushed) {
      responses.add(message);
    } else {
      out.send(message);
    }
  }

  private void completed() {
    awaiting--;
    if (dispatched && awaiting == 0) {
      flush();
    }
  }

  private void flush() {
    flushed = true;
    // A session that closed while serving the batch sends nothing more, not even the part answered before.
    boolean closedMeanwhile = startedOpen && session.state() == SessionState.CLOSED;
    if (!responses.isEmpty() && !closedMeanwhile) {
      out.sendBatch(List.copyOf(responses));
    }
  }
}
