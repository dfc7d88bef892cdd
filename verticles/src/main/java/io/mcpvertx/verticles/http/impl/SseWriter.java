package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.server.observe.McpObserver;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import java.nio.charset.StandardCharsets;

/**
 * Writes one SSE response: the one place where SSE framing is produced. A slow reader cannot grow memory
 * without bound: once the response's write queue is over its limit the connection is closed, and the client
 * resumes from the event store with {@code Last-Event-ID}.
 *
 * <p>A writer can be corked: frames are then held back and go out together, with the response head, at the next
 * {@link #uncork()} or end. Each write to a connection is a flush, and on loopback or a LAN a flush costs more
 * than the few hundred bytes it carries; a POST answered as a stream (head, priming event, answer, end) is written
 * once instead of four times when its answer comes at once.
 *
 * <p>Confined to the context of the HTTP verticle that owns the connection.
 */
final class SseWriter {

  private static final Buffer HEARTBEAT = Buffer.buffer(": keep-alive\n\n");
  // Header names and values made once as ASCII: Vert.x copies them into the head as they are (the standard names
  // are Vert.x's own constants).
  private static final CharSequence EVENT_STREAM = HttpHeaders.createOptimized("text/event-stream");
  private static final CharSequence NO_CACHE = HttpHeaders.createOptimized("no-cache, no-store");
  private static final CharSequence ACCEL_BUFFERING = HttpHeaders.createOptimized("X-Accel-Buffering");
  private static final CharSequence NO = HttpHeaders.createOptimized("no");
  private static final byte[] ID = "id: ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] DATA = "\ndata: ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] EMPTY_DATA = "\ndata: \n\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] END = "\n\n".getBytes(StandardCharsets.US_ASCII);

  private final HttpServerResponse response;
  private final McpObserver observer;
  private final int maxQueueBytes;
  private boolean open;
  private boolean corked;
  /** What was written while corked; null when nothing waits. */
  private Buffer held;

  /** @param observer told when the stream opens and closes; null for none */
  SseWriter(HttpServerResponse response, int maxQueueBytes, McpObserver observer) {
    this.response = response;
    this.observer = observer;
    this.maxQueueBytes = maxQueueBytes;
  }

  /** Sends the SSE response head. */
  void start() {
    prepareHead();
    goesOn();
    response.writeHead();
    open = true;
    observe();
  }

  /**
   * Starts the response corked: its head goes out with the first frames, at {@link #uncork()} or the end. Whether
   * it is chunked is decided then: a stream that ends before its head went out is known whole, and goes as one
   * response with a {@code Content-Length}, which spares the chunk framing and lets Vert.x write it as one message.
   */
  void startCorked() {
    prepareHead();
    open = true;
    corked = true;
    observe();
  }

  private void observe() {
    if (observer != null) {
      observer.streamOpened();
      // Called once the response is disposed: ended by us, or its connection closed first. (Not the close handler:
      // the stream's owners set that one.)
      response.endHandler(v -> observer.streamClosed());
    }
  }

  private void prepareHead() {
    // Added, not set: a new response has none of these, and setting one first looks for it to remove it.
    response.setStatusCode(200).headers()
        .add(HttpHeaders.CONTENT_TYPE, EVENT_STREAM)
        .add(HttpHeaders.CACHE_CONTROL, NO_CACHE)
        .add(ACCEL_BUFFERING, NO);
  }

  /**
   * The stream is sent as it goes, so it is chunked and a slow reader is bounded by its write queue. A stream corked
   * from the start that ends before its head went out needs neither: it goes as one response, in one write.
   */
  private void goesOn() {
    response.setChunked(true);
    response.setWriteQueueMaxSize(maxQueueBytes);
  }

  /** Holds back what is written from now on until {@link #uncork()} or the end. */
  void cork() {
    corked = true;
  }

  /** Writes what was held back (and the head, if it has not gone yet), in one write. */
  void uncork() {
    if (!corked) {
      return;
    }
    corked = false;
    Buffer frames = held;
    held = null;
    if (!isOpen()) {
      return;
    }
    if (!response.headWritten()) {
      goesOn();
    }
    if (frames != null) {
      write(frames);
    } else if (!response.headWritten()) {
      response.writeHead();
    }
  }

  boolean isOpen() {
    return open && !response.closed() && !response.ended();
  }

  /** One event; {@code data} must be a single line (JSON-RPC messages are encoded compactly). */
  void event(String id, Buffer data) {
    if (isOpen()) {
      write(frame(corked ? held(data.length() + 64) : Buffer.buffer(data.length() + 64), id, data));
    }
  }

  /** A priming event followed by an event, as {@link #priming} and then {@link #event}, in one buffer. */
  void primedEvent(String primingId, String id, Buffer data) {
    if (isOpen()) {
      int size = primingId.length() + id.length() + data.length() + 32;
      Buffer frames = corked ? held(size) : Buffer.buffer(size);
      write(frame(primingFrame(frames, primingId), id, data));
    }
  }

  /** Appends one event's frame to {@code frame}; {@code id} null for an event without one. */
  private static Buffer frame(Buffer frame, String id, Buffer data) {
    if (id != null) {
      frame.appendBytes(ID).appendString(id).appendBytes(DATA);
    } else {
      frame.appendBytes(DATA, 1, DATA.length - 1);
    }
    return frame.appendBuffer(data).appendBytes(END);
  }

  /** A priming event: an id with empty data, so the client can resume before anything else was sent. */
  void priming(String id) {
    if (isOpen()) {
      write(primingFrame(corked ? held(id.length() + 16) : Buffer.buffer(id.length() + 16), id));
    }
  }

  private static Buffer primingFrame(Buffer frame, String id) {
    return frame.appendBytes(ID).appendString(id).appendBytes(EMPTY_DATA);
  }

  /** What is held back, to append a frame of about {@code size} bytes to; written whole at the uncork or the end. */
  private Buffer held(int size) {
    if (held == null) {
      held = Buffer.buffer(size);
    }
    return held;
  }

  void heartbeat() {
    if (!response.writeQueueFull()) {
      write(HEARTBEAT.copy()); // a stream with data waiting needs no keep-alive
    }
  }

  /**
   * One replayed event. A replay is read from the event store, so it is paced instead: the caller stops while
   * {@link #isFull()} and goes on from {@link #drainHandler}. Its size is bounded by the store's retention.
   */
  void replayEvent(String id, Buffer data) {
    if (isOpen()) {
      response.write(frame(Buffer.buffer(data.length() + 64), id, data));
    }
  }

  boolean isFull() {
    return response.writeQueueFull();
  }

  void drainHandler(Handler<Void> handler) {
    response.drainHandler(handler);
  }

  /** Drops the connection of a reader too slow to keep up; it resumes from the store. */
  void drop() {
    if (isOpen()) {
      response.reset();
    }
    held = null;
    open = false;
  }

  /** Ends the stream, first telling a client that can resume how long to wait before it reconnects. */
  void endWithRetry(long retryMs) {
    Buffer retry = Buffer.buffer("retry: " + retryMs + "\n\n", StandardCharsets.UTF_8.name());
    if (isOpen()) {
      response.end(held == null ? retry : held.appendBuffer(retry));
    }
    held = null;
    open = false;
  }

  void end() {
    if (isOpen()) {
      if (held != null) {
        response.end(held);
      } else {
        response.end();
      }
    }
    held = null;
    open = false;
  }

  private void write(Buffer frame) {
    if (corked) {
      // Nothing goes out yet, so the connection need not be asked (each ask takes its lock): the uncork or the end
      // asks before what is held is written.
      if (frame != held) { // a frame appended to what is held is there already
        held = held == null ? frame : held.appendBuffer(frame);
      }
      return;
    }
    if (!isOpen()) {
      return;
    }
    response.write(frame);
    if (response.writeQueueFull()) {
      // Everything written is also in the event store: dropping the slow connection loses nothing.
      drop();
    }
  }
}
