package io.mcpvertx.verticles.http;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

/**
 * A raw Streamable HTTP client for tests: it sends exactly the headers it is given, so tests can leave any of them
 * out. {@link #initialize(String)} runs the handshake and yields a {@link McpHttpTestSession} that fills the
 * session headers in.
 */
final class McpHttpTestClient {

  static final String ACCEPT_BOTH = "application/json, text/event-stream";

  private final HttpClient http;
  private final int port;
  private final String path;
  private final String bearer;

  McpHttpTestClient(HttpClient http, int port, String path) {
    this(http, port, path, null);
  }

  private McpHttpTestClient(HttpClient http, int port, String path, String bearer) {
    this.http = http;
    this.port = port;
    this.path = path;
    this.bearer = bearer;
  }

  /** The same client sending {@code Authorization: Bearer <token>} with every request that has none. */
  McpHttpTestClient withBearer(String token) {
    return new McpHttpTestClient(http, port, path, token);
  }

  /** An HTTP/1.1 client with room for many concurrent requests. */
  static McpHttpTestClient http1(Vertx vertx, int port) {
    return http1(vertx, port, new HttpClientOptions());
  }

  static McpHttpTestClient http1(Vertx vertx, int port, HttpClientOptions options) {
    return new McpHttpTestClient(vertx.createHttpClient(options, new PoolOptions().setHttp1MaxSize(64)), port,
        McpHttpServerOptions.DEFAULT_PATH);
  }

  /** An HTTP/2 client speaking cleartext with prior knowledge (no upgrade). */
  static McpHttpTestClient h2c(Vertx vertx, int port) {
    return new McpHttpTestClient(vertx.createHttpClient(new HttpClientOptions()
        .setProtocolVersion(HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false)), port,
        McpHttpServerOptions.DEFAULT_PATH);
  }

  /** The headers of a well-formed POST without a session. */
  static MultiMap postHeaders() {
    return MultiMap.caseInsensitiveMultiMap()
        .add("Content-Type", "application/json")
        .add("Accept", ACCEPT_BOTH);
  }

  static JsonObject initializeRequest(String version) {
    return initializeRequest(version, new JsonObject());
  }

  static JsonObject initializeRequest(String version, JsonObject capabilities) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", 0).put("method", "initialize")
        .put("params", new JsonObject().put("protocolVersion", version).put("capabilities", capabilities)
            .put("clientInfo", new JsonObject().put("name", "http-test").put("version", "1.0.0")));
  }

  static JsonObject notification(String method) {
    return new JsonObject().put("jsonrpc", "2.0").put("method", method);
  }

  RequestOptions options(HttpMethod method) {
    return new RequestOptions().setMethod(method).setHost("127.0.0.1").setPort(port).setURI(path);
  }

  /** Sends a request and reads the response as it comes. */
  Future<SseStream> open(RequestOptions options, MultiMap headers, Buffer body) {
    if (bearer != null && !headers.contains("Authorization")) {
      headers = MultiMap.caseInsensitiveMultiMap().addAll(headers).add("Authorization", "Bearer " + bearer);
    }
    return http.request(options.setHeaders(headers))
        .compose(request -> body == null ? request.send() : request.send(body))
        .map(SseStream::read);
  }

  /** Sends a request and reads the whole response. */
  Future<HttpReply> send(RequestOptions options, MultiMap headers, Buffer body) {
    return open(options, headers, body).compose(SseStream::reply);
  }

  Future<HttpReply> send(HttpMethod method, MultiMap headers, Buffer body) {
    return send(options(method), headers, body);
  }

  Future<HttpReply> post(MultiMap headers, JsonObject body) {
    return send(HttpMethod.POST, headers, body.toBuffer());
  }

  /** Posts {@code initialize} and nothing else. */
  Future<HttpReply> initializeOnly(String version) {
    return post(postHeaders(), initializeRequest(version));
  }

  /** The whole handshake: initialize, then {@code notifications/initialized} (answered 202). */
  Future<McpHttpTestSession> initialize(String version) {
    return initialize(version, new JsonObject());
  }

  /** The handshake of a client that declares {@code capabilities}. */
  Future<McpHttpTestSession> initialize(String version, JsonObject capabilities) {
    return post(postHeaders(), initializeRequest(version, capabilities)).compose(reply -> {
      if (reply.status() != 200 || reply.header("Mcp-Session-Id") == null) {
        return Future.failedFuture(new AssertionError("initialize failed: " + reply));
      }
      JsonObject response = reply.messages().get(0);
      McpHttpTestSession session = new McpHttpTestSession(this, reply.header("Mcp-Session-Id"),
          response.getJsonObject("result").getString("protocolVersion"), response);
      return session.post(notification("notifications/initialized")).compose(ack -> ack.status() == 202
          ? Future.succeededFuture(session)
          : Future.failedFuture(new AssertionError("initialized was not accepted: " + ack)));
    });
  }
}
