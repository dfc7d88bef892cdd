package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.server.observe.McpObserver;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
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

  private final HttpServerResponse response;
  private final McpObserver observer;
  private boolean open;
  private boolean corked;
  /** What was written while corked; null when nothing waits. */
  private Buffer held;

  /** @param observer told when the stream opens and closes; null for none */
  SseWriter(HttpServerResponse response, int maxQueueBytes, McpObserver observer) {
    this.response = response;
    this.observer = observer;
    response.setWriteQueueMaxSize(maxQueueBytes);
  }

  /** Sends the SSE response head. */
  void start() {
    prepareHead();
    response.writeHead();
    open = true;
    observe();
  }

  /** Starts the response corked: its head goes out with the first frames, at {@link #uncork()} or the end. */
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
    response.setStatusCode(200)
        .putHeader("Content-Type", "text/event-stream")
        .putHeader("Cache-Control", "no-cache, no-store")
        .putHeader("X-Accel-Buffering", "no")
        .setChunked(true);
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
    write(frame(id, data));
  }

  private static Buffer frame(String id, Buffer data) {
    Buffer frame = Buffer.buffer(data.length() + 64);
    if (id != null) {
      frame.appendString("id: ").appendString(id).appendString("\n");
    }
    return frame.appendString("data: ").appendBuffer(data).appendString("\n\n");
  }

  /** A priming event: an id with empty data, so the client can resume before anything else was sent. */
  void priming(String id) {
    write(Buffer.buffer("id: " + id + "\ndata: \n\n"));
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
      response.write(frame(id, data));
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
      wholeIfUnsent();
      response.end(held == null ? retry : held.appendBuffer(retry));
    }
    held = null;
    open = false;
  }

  void end() {
    if (isOpen()) {
      wholeIfUnsent();
      if (held != null) {
        response.end(held);
      } else {
        response.end();
      }
    }
    held = null;
    open = false;
  }

  /**
   * A stream that ends before its head went out (corked from the start) is known whole: it goes as one response with
   * a {@code Content-Length}, not chunked, which spares the chunk framing and lets Vert.x write it as one message.
   */
  private void wholeIfUnsent() {
    if (!response.headWritten()) {
      response.setChunked(false);
    }
  }

  private void write(Buffer frame) {
    if (!isOpen()) {
      return;
    }
    if (corked) {
      held = held == null ? frame : held.appendBuffer(frame);
      return;
    }
    response.write(frame);
    if (response.writeQueueFull()) {
      // Everything written is also in the event store: dropping the slow connection loses nothing.
      drop();
    }
  }
}
