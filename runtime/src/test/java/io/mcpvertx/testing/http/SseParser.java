package io.mcpvertx.testing.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A tiny SSE parser for tests (the WHATWG event-stream rules the MCP transports rely on): lines end with LF, CR or
 * CRLF; {@code id}, {@code data}, {@code event} and {@code retry} fields; comments ignored; a blank line ends an
 * event. Unlike a browser it also reports events with empty data (priming events) and a {@code retry}-only block,
 * because the tests check exactly those.
 *
 * <p>Not thread-safe: feed it from one thread at a time.
 */
public final class SseParser {

  /** One dispatched block. {@code data} is null when the block had no data line; {@code retry} -1 when absent. */
  public record Event(String id, String event, String data, long retry) {

    public boolean isPriming() {
      return id != null && data != null && data.isBlank();
    }

    public boolean hasMessage() {
      return data != null && !data.isBlank();
    }

    /** The JSON-RPC message the event carries. */
    public JsonObject message() {
      return new JsonObject(data);
    }
  }

  private final Consumer<Event> sink;
  /** Bytes of the line being read; decoded only once complete, so a character split across chunks survives. */
  private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
  private boolean lastWasCr;
  private String id;
  private String event;
  private StringBuilder data;
  private long retry = -1;
  private boolean any;
  private int comments;

  SseParser(Consumer<Event> sink) {
    this.sink = sink;
  }

  /** Parses a whole body at once. */
  public static List<Event> parse(Buffer body) {
    List<Event> events = new ArrayList<>();
    SseParser parser = new SseParser(events::add);
    parser.feed(body);
    return events;
  }

  public void feed(Buffer chunk) {
    byte[] bytes = chunk.getBytes();
    for (byte b : bytes) {
      if (b == '\n' && lastWasCr) {
        lastWasCr = false;
        continue;
      }
      lastWasCr = b == '\r';
      if (b == '\n' || b == '\r') {
        String text = partial.toString(StandardCharsets.UTF_8);
        partial.reset();
        onLine(text);
      } else {
        partial.write(b);
      }
    }
  }

  /** Comment lines seen (servers send them as keep-alives). */
  public int comments() {
    return comments;
  }

  private void onLine(String text) {
    if (text.isEmpty()) {
      if (any) {
        sink.accept(new Event(id, event, data == null ? null : data.toString(), retry));
      }
      id = null;
      event = null;
      data = null;
      retry = -1;
      any = false;
      return;
    }
    if (text.startsWith(":")) {
      comments++;
      return;
    }
    int colon = text.indexOf(':');
    String field = colon < 0 ? text : text.substring(0, colon);
    String value = colon < 0 ? "" : text.substring(colon + 1);
    if (value.startsWith(" ")) {
      value = value.substring(1);
    }
    switch (field) {
      case "id" -> id = value;
      case "event" -> event = value;
      case "data" -> data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
      case "retry" -> retry = !value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9')
          ? Long.parseLong(value) : -1;
      default -> {
        return;
      }
    }
    any = true;
  }
}
