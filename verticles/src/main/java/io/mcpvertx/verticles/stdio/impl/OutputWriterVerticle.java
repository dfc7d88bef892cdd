package io.mcpvertx.verticles.stdio.impl;

import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.verticles.bus.SessionBatch;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * Writes outbound messages as lines to a blocking output stream. Deployed as a worker verticle, because a pipe
 * whose reader is slow blocks the writer, and that must never be an event loop. A worker context runs one task at
 * a time, so lines keep their order.
 */
final class OutputWriterVerticle extends VerticleBase {

  /** Body of the message that asks for a flush and a reply once everything before it is written. */
  static final String FLUSH = "flush";

  private static final Logger LOG = System.getLogger(OutputWriterVerticle.class.getName());
  private static final byte[] NEWLINE = {'\n'};

  private final String address;
  private final OutputStream out;
  private final JsonRpcCodec codec;
  private MessageConsumer<Object> consumer;
  private boolean broken;

  OutputWriterVerticle(String address, OutputStream out, JsonRpcCodec codec) {
    this.address = address;
    this.out = out;
    this.codec = codec;
  }

  @Override
  public Future<?> start() {
    consumer = vertx.eventBus().consumer(address, this::write);
    return consumer.completion();
  }

  @Override
  public Future<?> stop() {
    return consumer.unregister();
  }

  private void write(Message<Object> message) {
    Object body = message.body();
    if (FLUSH.equals(body)) {
      message.reply(FLUSH);
      return;
    }
    Buffer line;
    if (body instanceof JsonRpcMessage jsonRpc) {
      line = codec.encode(jsonRpc);
    } else if (body instanceof SessionBatch batch) {
      line = codec.encodeBatch(batch.messages());
    } else {
      LOG.log(Level.WARNING, "Ignored an outbound message of type " + (body == null ? "null" : body.getClass()));
      return;
    }
    if (broken) {
      return;
    }
    try {
      out.write(line.getBytes());
      out.write(NEWLINE);
      out.flush();
    } catch (IOException e) {
      // The host closed our output: nobody can read anything more we write.
      broken = true;
      LOG.log(Level.WARNING, "Standard output is closed; further messages are dropped: " + e.getMessage());
    }
  }
}
