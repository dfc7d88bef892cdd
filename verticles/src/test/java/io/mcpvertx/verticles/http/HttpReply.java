package io.mcpvertx.verticles.http;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** A whole HTTP response as a test sees it: status, headers and the body read to its end. */
record HttpReply(int status, MultiMap headers, Buffer body) {

  String header(String name) {
    return headers.get(name);
  }

  String contentType() {
    String type = headers.get("Content-Type");
    return type == null ? null : type.split(";")[0].trim();
  }

  boolean isSse() {
    return "text/event-stream".equals(contentType());
  }

  /** The body as one JSON object (a JSON response, or the JSON-RPC error of a rejection). */
  JsonObject json() {
    return body.toJsonObject();
  }

  /** The body parsed as an SSE stream. */
  List<SseParser.Event> events() {
    return SseParser.parse(body);
  }

  /** The JSON-RPC messages carried, whether the body was JSON or SSE (priming events left out). */
  List<JsonObject> messages() {
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
