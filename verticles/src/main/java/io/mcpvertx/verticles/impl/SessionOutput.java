package io.mcpvertx.verticles.impl;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.spi.sessions.SessionRecord;
import io.vertx.core.Context;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Everything a session verticle's session sends, on its way to a transport. With a session store, what the session
 * sends while one of its records is being written waits, in order, until the write is over: no client hears of a
 * change (the answer to {@code initialize}, to {@code logging/setLevel}) before another instance can read it.
 *
 * <p>Made when the verticle starts, and confined to its context: what arrives from another thread is moved there.
 */
final class SessionOutput {

  /** Writes the session's records; null without a session store, when nothing ever waits. */
  private final RecordWrites writes;
  private final Context context;
  /** The event-loop thread of {@link #context}: {@link #held} is touched on it only. */
  private final Thread loop;
  /** Whether a request abandoned now was cut by the verticle's stop and deserves an answer instead. */
  private final BooleanSupplier answerAbandoned;
  /** What the session sent while a record was being written, in order; null when nothing waits. */
  private ArrayDeque<Runnable> held;

  SessionOutput(RecordWrites writes, Context context, Thread loop, BooleanSupplier answerAbandoned) {
    this.writes = writes;
    this.context = context;
    this.loop = loop;
    this.answerAbandoned = answerAbandoned;
  }

  /** Whether the session's records are stored (and so may hold its output back). */
  boolean storesRecords() {
    return writes != null;
  }

  /** Stores the session's new record; what the session sends meanwhile waits until the write is over. */
  void changed(SessionRecord record) {
    writes.write(record);
    if (held == null && writes.busy()) {
      held = new ArrayDeque<>();
      writes.settled().onComplete(ar -> release());
    }
  }

  /** Calls {@code then} once what the messages handled so far changed is stored. */
  void acknowledge(Runnable then) {
    if (writes == null) {
      then.run();
    } else {
      writes.settled().onComplete(ar -> then.run());
    }
  }

  /** The session's way to {@code target}: through this output, held back while a record is being written. */
  MessageSink to(MessageSink target) {
    return new HeldSink(this, target);
  }

  /** Sends now, or after the record being written when one is. */
  private void out(Runnable send) {
    if (writes == null) {
      send.run();
    } else if (Thread.currentThread() != loop) {
      context.runOnContext(v -> out(send));
    } else if (held != null) {
      held.add(send);
    } else {
      send.run();
    }
  }

  private void release() {
    ArrayDeque<Runnable> sends = held;
    held = null;
    if (sends != null) {
      sends.forEach(Runnable::run);
    }
  }

  /** A request cut by a stop is answered rather than abandoned when the transport asked for that. */
  private record HeldSink(SessionOutput output, MessageSink target) implements MessageSink {

    @Override
    public void send(JsonRpcMessage message) {
      output.out(() -> target.send(message));
    }

    @Override
    public void sendBatch(List<JsonRpcMessage> responses) {
      output.out(() -> target.sendBatch(responses));
    }

    @Override
    public void abandoned(JsonRpcId requestId) {
      if (output.answerAbandoned.getAsBoolean()) {
        // Not the client's cancellation: the request deserves an answer, one that says what to do.
        JsonRpcErrorResponse stopped = new JsonRpcErrorResponse(requestId,
            new JsonRpcError(JsonRpcErrorCodes.INTERNAL_ERROR, SessionVerticle.STOPPED_MESSAGE));
        output.out(() -> target.send(stopped));
        return;
      }
      output.out(() -> target.abandoned(requestId));
    }

    @Override
    public boolean resumable() {
      return target.resumable();
    }

    @Override
    public void closeSseStream(long retryMs) {
      output.out(() -> target.closeSseStream(retryMs));
    }
  }
}
