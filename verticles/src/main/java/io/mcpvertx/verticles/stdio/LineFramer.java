package io.mcpvertx.verticles.stdio;

import io.vertx.core.buffer.Buffer;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Splits a byte stream into newline-delimited frames, however the bytes are chunked. A line longer than the limit
 * is skipped up to its newline and reported once, so a hostile peer costs at most {@code maxLineBytes} of memory.
 * A trailing {@code \r} is dropped and blank lines are ignored.
 *
 * <p>Not thread-safe: one reader feeds it.
 */
public final class LineFramer {

  private final int maxLineBytes;
  private final Consumer<Buffer> onLine;
  private final Runnable onOversize;
  private byte[] pending = new byte[1024];
  private int count;
  private boolean skipping;

  public LineFramer(int maxLineBytes, Consumer<Buffer> onLine, Runnable onOversize) {
    this.maxLineBytes = maxLineBytes;
    this.onLine = onLine;
    this.onOversize = onOversize;
  }

  public void feed(byte[] bytes, int offset, int length) {
    int start = offset;
    int end = offset + length;
    for (int i = offset; i < end; i++) {
      if (bytes[i] == '\n') {
        if (!skipping) {
          appendBounded(bytes, start, i - start);
          if (!skipping) {
            emit();
          }
        }
        skipping = false;
        count = 0;
        start = i + 1;
      }
    }
    if (!skipping && start < end) {
      appendBounded(bytes, start, end - start);
    }
  }

  /** True if bytes of an unterminated line are buffered (used to report a truncated last line at EOF). */
  public boolean hasPartialLine() {
    return count > 0;
  }

  /** Emits a last line that had no newline before end of input. */
  public void finish() {
    if (!skipping && count > 0) {
      emit();
    }
    count = 0;
    skipping = false;
  }

  private void appendBounded(byte[] bytes, int start, int length) {
    if (count + length > maxLineBytes) {
      skipping = true;
      count = 0;
      releaseLargeBuffer(); // the line grew it towards the limit before it turned out to be too long
      onOversize.run();
      return;
    }
    if (count + length > pending.length) {
      pending = Arrays.copyOf(pending, Math.min(maxLineBytes, Math.max(count + length, pending.length * 2)));
    }
    System.arraycopy(bytes, start, pending, count, length);
    count += length;
  }

  private void emit() {
    int length = count;
    if (length > 0 && pending[length - 1] == '\r') {
      length--;
    }
    boolean blank = true;
    for (int i = 0; i < length && blank; i++) {
      byte b = pending[i];
      blank = b == ' ' || b == '\t' || b == '\r';
    }
    if (!blank) {
      onLine.accept(Buffer.buffer().appendBytes(pending, 0, length));
    }
    count = 0;
    releaseLargeBuffer();
  }

  /** Does not keep one huge line's buffer for the life of the session. */
  private void releaseLargeBuffer() {
    if (pending.length > 64 * 1024) {
      pending = new byte[1024];
    }
  }
}
