package io.mcpvertx.testing.http;

import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.StatelessTransport;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
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
import java.lang.ref.Reference;
import java.util.function.Supplier;

/**
 * The Streamable HTTP transport of the test clients, usable raw: it sends exactly the headers it is given, so tests
 * can leave any of them out, and hands back whole replies ({@link HttpReply}) or streams read as they come
 * ({@link SseStream}). {@link #initialize(String)} runs the handshake and yields a {@link StreamableHttpSession}
 * that fills the session headers in. The protocol-level clients ({@code McpTestClient.http},
 * {@code StatelessTransport.http}) ride on it.
 */
public final class StreamableHttp {

  /** Where the servers under test listen unless told otherwise. */
  public static final String DEFAULT_PATH = "/mcp";

  public static final String ACCEPT_BOTH = "application/json, text/event-stream";

  private final HttpClient http;
  private final int port;
  private final String path;
  private final String bearer;
  /**
   * Where a request sent from outside Vert.x (a test's own thread) runs: composed there, a quick response could end
   * on the event loop before its handlers are set.
   */
  private final Context context;

  StreamableHttp(HttpClient http, int port, String path, Context context) {
    this(http, port, path, null, context);
  }

  private StreamableHttp(HttpClient http, int port, String path, String bearer, Context context) {
    this.http = http;
    this.port = port;
    this.path = path;
    this.bearer = bearer;
    this.context = context;
  }

  /** The same client sending {@code Authorization: Bearer <token>} with every request that has none. */
  public StreamableHttp withBearer(String token) {
    return new StreamableHttp(http, port, path, token, context);
  }

  /** The same client aimed at the instance listening on {@code port} (same connection pool and bearer). */
  public StreamableHttp at(int port) {
    return new StreamableHttp(http, port, path, bearer, context);
  }

  public int port() {
    return port;
  }

  /** The 2026-07-28 stateless wire over this client, for a {@code StatelessTestClient}. */
  public StatelessTransport stateless() {
    return new StatelessHttpTransport(this);
  }

  /**
   * A 2025 session client over this HTTP client: its frames are POSTed, and the messages of each answer (the JSON
   * body or the SSE events, as they arrive) come back to it; the session id and revision go with every request
   * once {@code initialize} set them. Closing the client deletes the session.
   */
  public McpTestClient sessionClient(Vertx vertx) {
    McpTestClient client = new McpTestClient(vertx.getOrCreateContext());
    return client.wire(new SessionHttpWire(this, client));
  }

  /** Closes the underlying HTTP client (shared by every {@link #at} view of it). */
  public Future<Void> close() {
    return http.close();
  }

  /** An HTTP/1.1 client with room for many concurrent requests. */
  public static StreamableHttp http1(Vertx vertx, int port) {
    return http1(vertx, port, new HttpClientOptions());
  }

  public static StreamableHttp http1(Vertx vertx, int port, HttpClientOptions options) {
    return new StreamableHttp(vertx.createHttpClient(options, new PoolOptions().setHttp1MaxSize(64)), port,
        DEFAULT_PATH, vertx.getOrCreateContext());
  }

  /** An HTTP/2 client speaking cleartext with prior knowledge (no upgrade). */
  public static StreamableHttp h2c(Vertx vertx, int port) {
    return new StreamableHttp(vertx.createHttpClient(new HttpClientOptions()
        .setProtocolVersion(HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false)), port,
        DEFAULT_PATH, vertx.getOrCreateContext());
  }

  /** The headers of a well-formed POST without a session. */
  public static MultiMap postHeaders() {
    return MultiMap.caseInsensitiveMultiMap()
        .add("Content-Type", "application/json")
        .add("Accept", ACCEPT_BOTH);
  }

  public static JsonObject initializeRequest(String version) {
    return initializeRequest(version, new JsonObject());
  }

  public static JsonObject initializeRequest(String version, JsonObject capabilities) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", 0).put("method", "initialize")
        .put("params", new JsonObject().put("protocolVersion", version).put("capabilities", capabilities)
            .put("clientInfo", new JsonObject().put("name", "http-test").put("version", "1.0.0")));
  }

  public static JsonObject notification(String method) {
    return new JsonObject().put("jsonrpc", "2.0").put("method", method);
  }

  public RequestOptions options(HttpMethod method) {
    return new RequestOptions().setMethod(method).setHost("127.0.0.1").setPort(port).setURI(path);
  }

  /** Sends a request and reads the response as it comes. */
  public Future<SseStream> open(RequestOptions options, MultiMap headers, Buffer body) {
    if (bearer != null && !headers.contains("Authorization")) {
      headers = MultiMap.caseInsensitiveMultiMap().addAll(headers).add("Authorization", "Bearer " + bearer);
    }
    MultiMap sent = headers;
    Supplier<Future<SseStream>> exchange = () -> http.request(options.setHeaders(sent)).compose(request -> {
      // The response is read in the very callback that gets it, a listener of the request's own response future,
      // which Vert.x calls on the context it delivers the body on, before any of it. A mapping of send()'s future
      // may run later, as a task, after a short body and its end went by (then no handler can be set any more).
      Promise<SseStream> opened = Promise.promise();
      request.response().onComplete(ar -> {
        if (ar.succeeded()) {
          opened.tryComplete(SseStream.read(ar.result()));
        } else {
          opened.tryFail(ar.cause());
        }
      });
      (body == null ? request.send() : request.send(body)).onFailure(opened::tryFail);
      return opened.future();
    });
    Future<SseStream> result;
    if (Vertx.currentContext() != null) {
      result = exchange.get();
    } else {
      Promise<SseStream> opened = Promise.promise();
      context.runOnContext(v -> exchange.get().onComplete(opened));
      result = opened.future();
    }
    // Vert.x closes a client its caller no longer references (a Cleaner on the client it hands out), even with a
    // request waiting for a connection: "Client is closed". A caller that drops this object once it has sent (as
    // server.client().send(...) does) would lose the client to a GC at the wrong moment, so the exchange holds it.
    return result.andThen(ar -> Reference.reachabilityFence(this));
  }

  /** Sends a request and reads the whole response. */
  public Future<HttpReply> send(RequestOptions options, MultiMap headers, Buffer body) {
    return open(options, headers, body).compose(SseStream::reply);
  }

  public Future<HttpReply> send(HttpMethod method, MultiMap headers, Buffer body) {
    return send(options(method), headers, body);
  }

  public Future<HttpReply> post(MultiMap headers, JsonObject body) {
    return send(HttpMethod.POST, headers, body.toBuffer());
  }

  /** Posts {@code initialize} and nothing else. */
  public Future<HttpReply> initializeOnly(String version) {
    return post(postHeaders(), initializeRequest(version));
  }

  /** The whole handshake: initialize, then {@code notifications/initialized} (answered 202). */
  public Future<StreamableHttpSession> initialize(String version) {
    return initialize(version, new JsonObject());
  }

  /** The handshake of a client that declares {@code capabilities}. */
  public Future<StreamableHttpSession> initialize(String version, JsonObject capabilities) {
    return post(postHeaders(), initializeRequest(version, capabilities)).compose(reply -> {
      if (reply.status() != 200 || reply.header("Mcp-Session-Id") == null) {
        return Future.failedFuture(new AssertionError("initialize failed: " + reply));
      }
      JsonObject response = reply.messages().get(0);
      StreamableHttpSession session = new StreamableHttpSession(this, reply.header("Mcp-Session-Id"),
          response.getJsonObject("result").getString("protocolVersion"), response);
      return session.post(notification("notifications/initialized")).compose(ack -> ack.status() == 202
          ? Future.succeededFuture(session)
          : Future.failedFuture(new AssertionError("initialized was not accepted: " + ack)));
    });
  }
}
