package io.mcpvertx.verticles.http.impl;

/**
 * The media-type checks of a POST ({@code Content-Type} is JSON, {@code Accept} lists JSON and event streams),
 * remembering the last verdict of each: a client sends the same header values on every request, and parsing an
 * {@code Accept} list costs more than the rest of the checks together. Confined to one HTTP verticle's context.
 */
final class PostMediaTypes {

  private static final String JSON = "application/json";
  private static final String EVENT_STREAM = "text/event-stream";

  private String lastContentType;
  private boolean lastContentTypeJson;
  private String lastAccept;
  private boolean lastAcceptBoth;

  /** Whether {@code Content-Type} names JSON. */
  boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    if (!contentType.equals(lastContentType)) {
      lastContentTypeJson = RequestGuard.isJson(contentType);
      lastContentType = contentType;
    }
    return lastContentTypeJson;
  }

  /** Whether {@code Accept} admits both JSON and event streams, as the 2025 revisions ask of every POST. */
  boolean acceptsJsonAndEventStream(String accept) {
    if (accept == null) {
      return false;
    }
    if (!accept.equals(lastAccept)) {
      lastAcceptBoth = RequestGuard.accepts(accept, JSON) && RequestGuard.accepts(accept, EVENT_STREAM);
      lastAccept = accept;
    }
    return lastAcceptBoth;
  }
}
