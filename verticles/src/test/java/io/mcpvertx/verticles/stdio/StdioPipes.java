package io.mcpvertx.verticles.stdio;

import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * Both ends of a stdio transport for tests, in place of a host process: an input the test writes into (it blocks the
 * server's reader until something is written, as a pipe does) and an output that splits what the server writes into
 * lines.
 */
final class StdioPipes {

  final ClientInput in = new ClientInput();
  final LineOutput out = new LineOutput();

  /**
   * An {@link McpTestClient} whose frames are written to {@link #in} as lines and which receives every line the server
   * writes to {@link #out}. Closing the client ends the input.
   */
  Future<McpTestClient> client(Vertx vertx) {
    McpTestClient client = McpTestClient.lines(vertx, in::write, in::end);
    out.onLine(client::receiveLine);
    return Future.succeededFuture(client);
  }

  /** What the server reads: chunks the test writes, then end of input. */
  static final class ClientInput extends InputStream {
    private static final byte[] EOF = new byte[0];
    private final BlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
    private final Promise<Void> endRead = Promise.promise();
    private byte[] current;
    private int position;
    private boolean ended;

    void write(String text) {
      chunks.add(text.getBytes(StandardCharsets.UTF_8));
    }

    void write(byte[] bytes) {
      chunks.add(bytes.clone());
    }

    void end() {
      chunks.add(EOF);
    }

    /** How many chunks the test wrote that the server has not started reading. */
    int unread() {
      return chunks.size();
    }

    /** Completes once the server's reader has been told the input ended. */
    Future<Void> endRead() {
      return endRead.future();
    }

    @Override
    public int read() throws InterruptedIOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws InterruptedIOException {
      while (!ended && (current == null || position == current.length)) {
        try {
          current = chunks.take();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException();
        }
        position = 0;
        ended = current == EOF;
      }
      if (ended) {
        endRead.tryComplete();
        return -1;
      }
      int n = Math.min(length, current.length - position);
      System.arraycopy(current, position, bytes, offset, n);
      position += n;
      return n;
    }
  }

  /** What the server writes: kept whole, and handed out line by line. */
  static final class LineOutput extends OutputStream {
    private final ByteArrayOutputStream all = new ByteArrayOutputStream();
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private volatile Consumer<String> onLine = l -> { };

    void onLine(Consumer<String> handler) {
      onLine = handler;
    }

    @Override
    public synchronized void write(int b) {
      all.write(b);
      if (b == '\n') {
        String complete = line.toString(StandardCharsets.UTF_8);
        line.reset();
        lines.add(complete);
        onLine.accept(complete);
      } else {
        line.write(b);
      }
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) {
      for (int i = offset; i < offset + length; i++) {
        write(bytes[i]);
      }
    }

    /** Every complete line so far. */
    List<String> lines() {
      return lines;
    }

    /** Everything written so far, as text. */
    synchronized String text() {
      return all.toString(StandardCharsets.UTF_8);
    }
  }
}
