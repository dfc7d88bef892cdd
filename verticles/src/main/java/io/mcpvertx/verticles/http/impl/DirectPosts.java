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
    request.body().onComplete(ar -> {
      if (ar.succeeded()) {
        try {
          post.accept(request, ar.result());
        } catch (RuntimeException e) {
          // What the router's failure handler does for a handler that threw: a precise answer, never a request
          // left without one.
          LOG.error("Request failed", e);
          if (!request.response().closed() && !request.response().ended()) {
            HttpErrors.reject(request.response(), Refusal.INTERNAL, JsonRpcErrorCodes.INTERNAL_ERROR,
                "Internal error");
          }
        }
      } else if (!request.response().closed() && !request.response().ended()) {
        HttpErrors.reject(request.response(), Refusal.BAD_REQUEST, "Bad Request: the body could not be read");
      }
    });
    return true;
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
