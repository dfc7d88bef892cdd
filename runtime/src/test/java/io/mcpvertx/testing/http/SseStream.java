package io.mcpvertx.testing.http;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * One HTTP response read as it arrives: SSE events parsed on the fly (whatever the content type, so a JSON body
 * simply yields none), the raw body kept, and how the response ended.
 *
 * <p>The response's handlers run on the client's event loop; the waiting methods may be called from any thread.
 */
public final class SseStream {

  private record Waiter(Predicate<SseParser.Event> test, Promise<SseParser.Event> promise) {
  }

  private final HttpClientResponse response;
  private final SseParser parser = new SseParser(this::onEvent);
  private final List<SseParser.Event> events = new ArrayList<>();
  private final List<Waiter> waiters = new ArrayList<>();
  private final List<Consumer<SseParser.Event>> listeners = new ArrayList<>();
  private final Buffer body = Buffer.buffer();
  private final Promise<Void> ended = Promise.promise();
  private boolean over;

  private SseStream(HttpClientResponse response) {
    this.response = response;
  }

  /** Starts reading; call it in the same callback that received the response, before any data is delivered. */
  public static SseStream read(HttpClientResponse response) {
    SseStream stream = new SseStream(response);
    response.handler(chunk -> {
      synchronized (stream) {
        stream.body.appendBuffer(chunk);
      }
      stream.parser.feed(chunk);
    });
    response.endHandler(v -> stream.finish(null));
    response.exceptionHandler(stream::finish);
    return stream;
  }

  public int status() {
    return response.statusCode();
  }

  public HttpVersion version() {
    return response.version();
  }

  public MultiMap headers() {
    return response.headers();
  }

  public boolean isSse() {
    String type = response.getHeader("Content-Type");
    return type != null && type.startsWith("text/event-stream");
  }

  /** Comment lines received so far: the server's keep-alives. */
  public int comments() {
    return parser.comments();
  }

  /** The events received so far. */
  public synchronized List<SseParser.Event> events() {
    return List.copyOf(events);
  }

  /** The events received so far that carry a JSON-RPC message. */
  public List<JsonObject> messages() {
    return events().stream().filter(SseParser.Event::hasMessage).map(SseParser.Event::message).toList();
  }

  /** The first event, received or to come, that passes {@code test}; fails if the response ends first. */
  public Future<SseParser.Event> await(Predicate<SseParser.Event> test) {
    synchronized (this) {
      for (SseParser.Event event : events) {
        if (test.test(event)) {
          return Future.succeededFuture(event);
        }
      }
      if (!over) {
        Promise<SseParser.Event> promise = Promise.promise();
        waiters.add(new Waiter(test, promise));
        return promise.future();
      }
    }
    return Future.failedFuture(new AssertionError("the stream ended without the expected event; got " + events()));
  }

  /**
   * Calls {@code listener} with every event, those received so far first, then each as it arrives (on the
   * client's event loop).
   */
  public void forEach(Consumer<SseParser.Event> listener) {
    List<SseParser.Event> past;
    synchronized (this) {
      past = List.copyOf(events);
      listeners.add(listener);
    }
    past.forEach(listener);
  }

  /** The event carrying the response to request {@code id}. */
  public Future<SseParser.Event> awaitResponse(Object id) {
    return await(e -> e.hasMessage() && isResponseTo(e.message(), id));
  }

  /** Completes when the response ends normally, fails when the connection or stream broke first. */
  public Future<Void> ended() {
    return ended.future();
  }

  /** Completes when the response is over, whichever way. */
  public Future<Void> over() {
    return ended.future().otherwiseEmpty();
  }

  /** The whole response, once it ended normally. */
  public Future<HttpReply> reply() {
    return ended.future().map(v -> {
      synchronized (this) {
        return new HttpReply(status(), headers(), body.copy());
      }
    });
  }

  public void pause() {
    response.pause();
  }

  public void resume() {
    response.resume();
  }

  /** Drops the connection under the response, as a network failure would. */
  public Future<Void> drop() {
    return response.request().connection().close();
  }

  public static boolean isResponseTo(JsonObject message, Object id) {
    return !message.containsKey("method") && String.valueOf(id).equals(String.valueOf(message.getValue("id")));
  }

  private void onEvent(SseParser.Event event) {
    List<Promise<SseParser.Event>> matched = new ArrayList<>();
    List<Consumer<SseParser.Event>> told;
    synchronized (this) {
      events.add(event);
      told = List.copyOf(listeners);
      for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
        Waiter waiter = it.next();
        if (waiter.test().test(event)) {
          matched.add(waiter.promise());
          it.remove();
        }
      }
    }
    told.forEach(listener -> listener.accept(event));
    matched.forEach(p -> p.tryComplete(event));
  }

  private void finish(Throwable failure) {
    List<Waiter> left;
    synchronized (this) {
      if (over) {
        return;
      }
      over = true;
      left = new ArrayList<>(waiters);
      waiters.clear();
    }
    for (Waiter waiter : left) {
      waiter.promise().tryFail(new AssertionError("the stream ended (" + (failure == null ? "normally" : failure)
          + ") without the expected event; got " + events()));
    }
    if (failure == null) {
      ended.tryComplete();
    } else {
      ended.tryFail(failure);
    }
  }
}
