package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.http.impl.HttpErrors.Refusal;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The POSTs that reach the MCP handler without the vertx-web router: the steady traffic of a server without CORS and
 * without authorization, which is most of what it serves. A POST is taken only when it is plain: the MCP path
 * exactly, one acceptable {@code Host}, an allowed or absent {@code Origin}, a {@code Content-Length} within the
 * body limit, no transfer coding and no {@code Expect}. Anything else goes to the router, which answers every
 * irregular case as it always has; so this lane only drops the router's cost (its context object, handler chain
 * and body handler) where none of them changes the outcome.
 */
final class DirectPosts {

  private static final Logger LOG = LoggerFactory.getLogger(DirectPosts.class);

  private final String path;
  private final long maxBodyBytes;
  private final RequestGuard guard;

  DirectPosts(McpHttpServerOptions options, RequestGuard guard) {
    this.path = options.getPath();
    this.maxBodyBytes = options.getMaxBodyBytes();
    this.guard = guard;
  }

  /**
   * Takes a plain POST: reads its body and hands it to {@code post}, on the request's context. False, and nothing
   * read, for any other request.
   */
  boolean take(HttpServerRequest request, BiConsumer<HttpServerRequest, Buffer> post) {
    if (request.method() != HttpMethod.POST || !path.equals(request.path()) || !isPlain(request)) {
      return false;
    }
    new Body(request, post).read();
    return true;
  }

  /**
   * A plain POST's body, read without {@link HttpServerRequest#body()}'s copy: a body that comes in one chunk (a
   * JSON-RPC message mostly does) is that chunk, which Vert.x hands over as a buffer of its own; a body in several
   * chunks is gathered in one buffer the size its {@code Content-Length} announced, so it never grows.
   */
  private final class Body {

    private final HttpServerRequest request;
    private final BiConsumer<HttpServerRequest, Buffer> post;
    private final int expected;
    private Buffer gathered;
    /** Whether {@link #gathered} is a buffer of ours (not the first chunk) that later chunks are appended to. */
    private boolean owned;
    private boolean failed;

    Body(HttpServerRequest request, BiConsumer<HttpServerRequest, Buffer> post) {
      this.request = request;
      this.post = post;
      // isPlain checked it: digits only, within the body limit.
      this.expected = (int) Math.min(Integer.MAX_VALUE,
          Long.parseLong(request.getHeader(HttpHeaders.CONTENT_LENGTH)));
    }

    void read() {
      request.handler(this::chunk);
      request.exceptionHandler(e -> fail());
      request.endHandler(v -> end());
    }

    private void chunk(Buffer chunk) {
      if (failed) {
        return;
      }
      long length = (gathered == null ? 0 : gathered.length()) + (long) chunk.length();
      if (length > maxBodyBytes) {
        // HTTP/1.1 holds a body to its Content-Length; HTTP/2 need not, so the limit is kept here too.
        fail();
        return;
      }
      if (gathered == null) {
        gathered = chunk;
        return;
      }
      if (!owned) {
        Buffer whole = Buffer.buffer((int) Math.max(expected, length));
        whole.appendBuffer(gathered);
        gathered = whole;
        owned = true;
      }
      gathered.appendBuffer(chunk);
    }

    private void fail() {
      if (!failed) {
        failed = true;
        if (!request.response().closed() && !request.response().ended()) {
          HttpErrors.reject(request.response(), Refusal.BAD_REQUEST, "Bad Request: the body could not be read");
        }
      }
    }

    private void end() {
      if (failed) {
        return;
      }
      try {
        post.accept(request, gathered == null ? Buffer.buffer() : gathered);
      } catch (RuntimeException e) {
        // What the router's failure handler does for a handler that threw: a precise answer, never a request
        // left without one.
        LOG.error("Request failed", e);
        if (!request.response().closed() && !request.response().ended()) {
          HttpErrors.reject(request.response(), Refusal.INTERNAL, JsonRpcErrorCodes.INTERNAL_ERROR,
              "Internal error");
        }
      }
    }
  }

  private boolean isPlain(HttpServerRequest request) {
    if (request.version() != HttpVersion.HTTP_1_1 && request.version() != HttpVersion.HTTP_2) {
      return false;
    }
    if (request.authority() == null || request.headers().getAll(HttpHeaders.HOST).size() > 1
        || request.headers().contains(HttpHeaders.TRANSFER_ENCODING)
        || request.headers().contains(HttpHeaders.EXPECT)) {
      return false;
    }
    String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (length == null || length.isEmpty() || length.length() > 12) {
      return false;
    }
    for (int i = 0; i < length.length(); i++) {
      if (length.charAt(i) < '0' || length.charAt(i) > '9') {
        return false;
      }
    }
    return Long.parseLong(length) <= maxBodyBytes && guard.checkHost(request) == null
        && guard.checkOrigin(request) == null;
  }
}
