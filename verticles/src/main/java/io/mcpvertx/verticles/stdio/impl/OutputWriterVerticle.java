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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes outbound messages as lines to a blocking output stream. The verticle encodes each message on its event
 * loop and queues the line ({@link OutputQueue}, whose size holds back the input); a daemon thread of its own
 * writes the lines in order, since a pipe whose reader is slow blocks the writer, and that must never be an event
 * loop or a worker the rest of the process shares.
 */
final class OutputWriterVerticle extends VerticleBase {

  /** Body of the message that asks for a flush and a reply once everything before it is written. */
  static final String FLUSH = "flush";

  private static final Logger LOG = LoggerFactory.getLogger(OutputWriterVerticle.class);

  private final String address;
  private final OutputStream out;
  private final JsonRpcCodec codec;
  private final OutputQueue queue;
  private MessageConsumer<Object> consumer;
  private Thread writer;

  OutputWriterVerticle(String address, OutputStream out, JsonRpcCodec codec, OutputQueue queue) {
    this.address = address;
    this.out = out;
    this.codec = codec;
    this.queue = queue;
  }

  @Override
  public Future<?> start() {
    writer = new Thread(this::writeLines, "mcp-stdio-writer");
    writer.setDaemon(true);
    writer.start();
    consumer = vertx.eventBus().consumer(address, this::enqueue);
    return consumer.completion();
  }

  @Override
  public Future<?> stop() {
    return consumer.unregister().onComplete(ar -> queue.close());
  }

  private void enqueue(Message<Object> message) {
    Object body = message.body();
    if (FLUSH.equals(body)) {
      queue.addMarker(() -> message.reply(FLUSH));
      return;
    }
    Buffer line;
    if (body instanceof JsonRpcMessage jsonRpc) {
      line = codec.encode(jsonRpc);
    } else if (body instanceof SessionBatch batch) {
      line = codec.encodeBatch(batch.messages());
    } else {
      LOG.warn("Ignored an outbound message of type " + (body == null ? "null" : body.getClass()));
      return;
    }
    queue.add(line.appendByte((byte) '\n').getBytes());
  }

  /** The writer thread: lines in order until the queue closes; after the host closed our output, drops them. */
  private void writeLines() {
    boolean broken = false;
    try {
      Object item;
      while ((item = queue.take()) != null) {
        if (item instanceof Runnable marker) {
          marker.run();
          continue;
        }
        byte[] line = (byte[]) item;
        if (!broken) {
          try {
            out.write(line);
            out.flush();
          } catch (IOException e) {
            broken = true;
            LOG.warn("Standard output is closed; further messages are dropped: " + e.getMessage());
          }
        }
        queue.written(line.length);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
