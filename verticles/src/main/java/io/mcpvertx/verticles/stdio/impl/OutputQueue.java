package io.mcpvertx.verticles.stdio.impl;

import java.util.ArrayDeque;

/**
 * The lines waiting for standard output, bounded in bytes by holding back the input: the reader thread asks for
 * room ({@link #awaitRoom}) before it reads the next chunk, and waits while more than the limit is queued. A host
 * that stops reading our output so stops us reading its requests, instead of growing the heap with answers nobody
 * reads. The answers to requests already read still queue past the limit: that overshoot is bounded by what those
 * requests produce.
 *
 * <p>Thread-safe: lines are added on an event loop, taken by the writer thread, and room awaited by the reader
 * thread; every access holds this object's monitor.
 */
final class OutputQueue {

  private final long limitBytes;
  private final ArrayDeque<Object> items = new ArrayDeque<>();
  /** Bytes queued or being written: a write blocked on a full pipe still counts. */
  private long bytes;
  private boolean closed;

  OutputQueue(long limitBytes) {
    this.limitBytes = limitBytes;
  }

  synchronized void add(byte[] line) {
    items.add(line);
    bytes += line.length;
    notifyAll();
  }

  /** Queues {@code marker} to run on the writer thread once every line before it is written. */
  synchronized void addMarker(Runnable marker) {
    items.add(marker);
    notifyAll();
  }

  /** The next line ({@code byte[]}) or marker ({@link Runnable}); null once closed and empty. */
  synchronized Object take() throws InterruptedException {
    while (items.isEmpty() && !closed) {
      wait();
    }
    return items.poll();
  }

  /** A line of {@code length} bytes was written (or dropped). */
  synchronized void written(int length) {
    bytes -= length;
    notifyAll();
  }

  /** Blocks while more than the limit is queued; whether it had to wait. */
  synchronized boolean awaitRoom() throws InterruptedException {
    boolean waited = false;
    while (bytes > limitBytes && !closed) {
      waited = true;
      wait();
    }
    return waited;
  }

  synchronized boolean isFull() {
    return bytes > limitBytes;
  }

  synchronized long queuedBytes() {
    return bytes;
  }

  /** No more lines: the writer ends once it has written what is queued, and a waiting reader goes on. */
  synchronized void close() {
    closed = true;
    notifyAll();
  }
}
