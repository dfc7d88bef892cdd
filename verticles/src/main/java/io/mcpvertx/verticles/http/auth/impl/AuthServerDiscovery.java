package io.mcpvertx.verticles.http.auth.impl;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Reads the authorization server's metadata (RFC 8414, or OpenID Connect discovery) once, at start-up: from the
 * configured URL, or from the issuer's well-known locations in the order MCP clients try them. A document is
 * taken only if it names the configured issuer (RFC 8414 section 3.3). Each fetch is bounded in time and size.
 */
final class AuthServerDiscovery {

  /** Metadata documents are a few kilobytes; anything past this is not one. */
  static final int MAX_DOCUMENT_BYTES = 256 * 1024;

  private AuthServerDiscovery() {
  }

  /** The well-known metadata URLs of an issuer, in the order the MCP authorization specification gives. */
  static List<String> candidates(String issuer) {
    URI uri = URI.create(issuer);
    String origin = uri.getScheme() + "://" + uri.getRawAuthority();
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    List<String> urls = new ArrayList<>();
    urls.add(origin + "/.well-known/oauth-authorization-server" + path);
    urls.add(origin + "/.well-known/openid-configuration" + path);
    if (!path.isEmpty()) {
      urls.add(origin + path + "/.well-known/openid-configuration");
    }
    return urls;
  }

  /** The metadata of {@code issuer}, from {@code url} if given, else from its well-known locations. */
  static Future<JsonObject> discover(Vertx vertx, String issuer, String url, long timeoutMs) {
    List<String> urls = url != null ? List.of(url) : candidates(issuer);
    HttpClient client = vertx.createHttpClient(new HttpClientOptions()
        .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMs))
        .setIdleTimeout((int) Math.max(1, timeoutMs / 1000))
        .setIdleTimeoutUnit(TimeUnit.SECONDS));
    List<String> problems = new ArrayList<>();
    return tryFrom(client, urls, 0, issuer, timeoutMs, problems)
        .eventually(client::close);
  }

  private static Future<JsonObject> tryFrom(HttpClient client, List<String> urls, int index, String issuer,
      long timeoutMs, List<String> problems) {
    if (index == urls.size()) {
      return Future.failedFuture(new IllegalStateException("auth: no metadata for issuer " + issuer + " ("
          + String.join("; ", problems) + ")"));
    }
    String url = urls.get(index);
    return fetch(client, url, timeoutMs).compose(document -> issuer.equals(document.getValue("issuer"))
        ? Future.succeededFuture(document)
        : Future.failedFuture(url + " names issuer " + document.getValue("issuer")))
        .recover(failure -> {
          problems.add(url + ": " + failure.getMessage());
          return tryFrom(client, urls, index + 1, issuer, timeoutMs, problems);
        });
  }

  private static Future<JsonObject> fetch(HttpClient client, String url, long timeoutMs) {
    return client.request(new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(url)
            .putHeader("Accept", "application/json"))
        .compose(request -> request.send())
        .compose(response -> {
          if (response.statusCode() != 200) {
            return Future.failedFuture("HTTP " + response.statusCode());
          }
          String length = response.getHeader("Content-Length");
          if (length != null && parseLength(length) > MAX_DOCUMENT_BYTES) {
            return Future.failedFuture("the document is larger than " + MAX_DOCUMENT_BYTES + " bytes");
          }
          return response.body();
        })
        .compose(body -> body.length() > MAX_DOCUMENT_BYTES
            ? Future.failedFuture("the document is larger than " + MAX_DOCUMENT_BYTES + " bytes")
            : Future.succeededFuture(body.toJsonObject()))
        .timeout(timeoutMs, TimeUnit.MILLISECONDS);
  }

  private static long parseLength(String length) {
    try {
      return Long.parseLong(length.trim());
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }
}
