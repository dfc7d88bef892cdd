package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.verticles.http.impl.HttpErrors.Refusal;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a request's body is framed, checked before anything reads it (RFC 9112, 6). Netty, under Vert.x, already
 * refuses two different {@code Content-Length} values and malformed chunk syntax; what it lets through is decided
 * here:
 *
 * <ul>
 *   <li>a transfer coding other than exactly {@code chunked} ({@code gzip, chunked}, {@code gzip}, {@code chunked}
 *       twice): 501, since the body would otherwise be read as something it is not;</li>
 *   <li>{@code Transfer-Encoding} in an HTTP/1.0 request, or beside a {@code Content-Length}: 400;</li>
 *   <li>a plain chunked request is served, and its connection closes after the answer. Netty drops a
 *       {@code Content-Length} sent beside {@code Transfer-Encoding: chunked} in HTTP/1.1 before any handler
 *       sees it, so such a request cannot be told from a chunked one; RFC 9112, 6.3 lets a server read it as
 *       chunked provided it closes the connection after answering, and that closing is what denies a request
 *       smuggled after the last chunk an answer.</li>
 * </ul>
 *
 * Each of these ends the connection after the answer, so whatever bytes follow are never read as a request.
 */
final class TransferFraming {

  /** A refusal and its message; null fields never escape: {@link #check} returns null for a request it accepts. */
  record Problem(Refusal refusal, String message) {
  }

  private TransferFraming() {
  }

  /** Whether the request carries a transfer coding, after which its connection must close. */
  static boolean closesConnection(HttpServerRequest request) {
    return request.headers().contains(HttpHeaders.TRANSFER_ENCODING);
  }

  /** Null when the request's framing is acceptable, otherwise the answer. */
  static Problem check(HttpServerRequest request) {
    List<String> values = request.headers().getAll(HttpHeaders.TRANSFER_ENCODING);
    if (values.isEmpty()) {
      return null;
    }
    if (request.version() == HttpVersion.HTTP_1_0) {
      return new Problem(Refusal.BAD_REQUEST, "Bad Request: Transfer-Encoding in an HTTP/1.0 request");
    }
    if (request.headers().contains(HttpHeaders.CONTENT_LENGTH)) {
      return new Problem(Refusal.BAD_REQUEST, "Bad Request: both Content-Length and Transfer-Encoding");
    }
    List<String> codings = codings(values);
    if (!codings.equals(List.of("chunked"))) {
      return new Problem(Refusal.NOT_IMPLEMENTED,
          "Not Implemented: transfer coding " + String.join(", ", codings) + " (only chunked is understood)");
    }
    return null;
  }

  /** The transfer codings named by every {@code Transfer-Encoding} header, in order, lower case, parameters cut. */
  private static List<String> codings(List<String> values) {
    List<String> codings = new ArrayList<>();
    for (String value : values) {
      for (String coding : value.split(",", -1)) {
        int semi = coding.indexOf(';');
        codings.add((semi < 0 ? coding : coding.substring(0, semi)).trim().toLowerCase(Locale.ROOT));
      }
    }
    return codings;
  }
}
