package io.mcpvertx.testing.http;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** A whole HTTP response as a test sees it: status, headers and the body read to its end. */
public record HttpReply(int status, MultiMap headers, Buffer body) {

  public String header(String name) {
    return headers.get(name);
  }

  public String contentType() {
    String type = headers.get("Content-Type");
    return type == null ? null : type.split(";")[0].trim();
  }

  public boolean isSse() {
    return "text/event-stream".equals(contentType());
  }

  /** The body as one JSON object (a JSON response, or the JSON-RPC error of a rejection). */
  public JsonObject json() {
    return body.toJsonObject();
  }

  /** The body parsed as an SSE stream. */
  public List<SseParser.Event> events() {
    return SseParser.parse(body);
  }

  /** The JSON-RPC messages carried, whether the body was JSON or SSE (priming events left out). */
  public List<JsonObject> messages() {
    if (isSse()) {
      return events().stream().filter(SseParser.Event::hasMessage).map(SseParser.Event::message).toList();
    }
    return List.of(json());
  }

  @Override
  public String toString() {
    return "HTTP " + status + " " + headers.entries() + " " + body;
  }
}
