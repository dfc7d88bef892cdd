package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.server.Principal;
import io.mcpvertx.verticles.bus.McpEventBus;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.http.impl.GenerationPicker.Generation;
import io.mcpvertx.verticles.http.impl.HttpErrors.Refusal;
import io.mcpvertx.verticles.http.impl.session.RandomIds;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP verticle of the endpoint. It holds connections only: a POST's body is checked and handed to its
 * generation ({@link GenerationPicker}): served here for 2026-07-28 ({@link StatelessHttp}), or sent to its session
 * verticle over the event bus ({@link SessionPosts}, {@link SessionGetsAndDeletes}), whose answers come back to this
 * verticle's router address, tagged with the stream they belong to.
 *
 * <p>Everything here is confined to this verticle's event loop; what is shared between verticles lives in
 * {@link HttpEndpoint}.
 */
final class McpHttpVerticle extends VerticleBase {


  private final HttpEndpoint endpoint;
  /** The authorization gate; null when authorization is off. */
  private final AuthGate auth;
  private final int port;
  private final Set<SseWriter> listens = new HashSet<>();
  private final PostMediaTypes mediaTypes = new PostMediaTypes();
  private ConnectionGuard connections;
  private StatelessHttp stateless;
  private SessionPosts posts;
  private SessionGetsAndDeletes gets;
  private MessageConsumer<Object> router;
  private HttpServer http;
  private long heartbeat = -1;
  /** Completes when the connections have ended after {@link #stopListening}; null before it. */
  private volatile Future<Void> connectionsDone;

  McpHttpVerticle(HttpEndpoint endpoint, AuthGate auth, int port) {
    this.endpoint = endpoint;
    this.auth = auth;
    this.port = port;
  }

  int actualPort() {
    return http.actualPort();
  }

  @Override
  public Future<?> start() {
    McpEventBus.registerCodecs(vertx);
    McpHttpServerOptions options = endpoint.options;
    String routerAddress = "mcp.http.router." + RandomIds.of(9);
    stateless = new StatelessHttp(endpoint, listens);
    posts = new SessionPosts(endpoint, context, routerAddress);
    gets = new SessionGetsAndDeletes(endpoint, context);
    router = vertx.eventBus().consumer(routerAddress, posts::route);
    connections = new ConnectionGuard(vertx, options, endpoint.connections);
    connections.start();
    HttpRouter.Methods methods = new HttpRouter.Methods(this::post, this::get, this::delete);
    http = vertx.createHttpServer(new HttpServerOptions()
        .setHost(options.getHost())
        .setPort(port)
        .setHttp2ClearTextEnabled(true)
        // No WebSocket is served here. With either compression on (both are by default), Vert.x puts a WebSocket
        // extension handler in every HTTP/1.1 connection's pipeline, which every request and response then
        // passes through.
        .setPerFrameWebSocketCompressionSupported(false)
        .setPerMessageWebSocketCompressionSupported(false)
        // The backstop for sockets that never send a byte: until one does, Vert.x cannot tell HTTP/1 from h2c
        // and shows no connection to the guard. Heartbeats keep streams above this.
        .setIdleTimeout((int) Math.min(Integer.MAX_VALUE, options.getConnectionIdleTimeoutMs()))
        .setIdleTimeoutUnit(TimeUnit.MILLISECONDS));
    heartbeat = vertx.setPeriodic(options.getHeartbeatIntervalMs(), t -> heartbeats());
    Router web = HttpRouter.create(vertx, endpoint, auth, connections, methods);
    // Without CORS and authorization, plain POSTs skip the router (see DirectPosts); the rest go through it.
    DirectPosts direct = auth == null && !options.isCors() ? new DirectPosts(options, endpoint.guard) : null;
    http.connectionHandler(connections::connected).requestHandler(request -> {
      if (connections.admit(request)
          && (direct == null || !direct.take(request, (req, body) -> post(req, body, null, null)))) {
        web.handle(request);
      }
    });
    return router.completion().compose(v -> listen());
  }

  /**
   * Listens from this verticle's own context, not from the callback's (which may be another one): Vert.x closes
   * the shared socket from the context it was bound from, and the shutdown asks for the close from this verticle's
   * context (see {@link McpHttpServerImpl#shutdown}), so that it does not wait behind another context's tasks.
   */
  private Future<HttpServer> listen() {
    Promise<HttpServer> listening = Promise.promise();
    context.runOnContext(v -> http.listen().onComplete(listening));
    return listening.future();
  }

  /**
   * Stops taking connections: this server leaves the listening socket it shares with the endpoint's other
   * verticles, and its connections with no request in progress close. Vert.x closes the socket itself when the
   * last server sharing it leaves. Runs on the caller's thread, so that a request already on its way on one of this
   * verticle's connections is read before the connection is told to close (see
   * {@link McpHttpServerImpl#shutdown}); {@link #drain()} then ends the streams and waits for the rest.
   */
  void stopListening(long timeoutMs) {
    if (connectionsDone == null) {
      connectionsDone = http.shutdown(timeoutMs, TimeUnit.MILLISECONDS);
    }
  }

  /** Runs {@code task} on this verticle's context. */
  void runOnContext(Runnable task) {
    context.runOnContext(v -> task.run());
  }

  /**
   * After {@link #stopListening}: hands the streams clients can resume to other instances when the stores are
   * shared (POST streams of 2025-11-25 sessions and GET streams end with a {@code retry}; their requests run on
   * here), ends the listen streams (and without shared stores the GET streams), and completes once the other
   * requests in flight are answered or the shutdown's timeout has passed.
   */
  Future<Void> drain() {
    Promise<Void> drained = Promise.promise();
    context.runOnContext(v -> {
      if (endpoint.sessions.shared()) {
        // Another instance serves the streams' sessions and replays their events: the clients resume there.
        long retryMs = endpoint.options.getSseRetryMs();
        posts.handOverAll(retryMs);
        gets.handOverAll(retryMs);
      } else {
        gets.endAll();
      }
      new ArrayList<>(listens).forEach(SseWriter::end);
      connectionsDone.onComplete(ar -> drained.complete());
    });
    return drained.future();
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(heartbeat);
    connections.stop();
    gets.endAll();
    return http.close().eventually(() -> router.unregister());
  }

  private void post(RoutingContext rc) {
    post(rc.request(), rc.body().buffer(), AuthGate.principal(rc), rc);
  }

  /**
   * A POST with its body read.
   *
   * @param principal the authenticated caller, or null without authorization
   * @param rc the router's context, or null for a POST that came without the router (then authorization is off)
   */
  private void post(HttpServerRequest request, Buffer body, Principal principal, RoutingContext rc) {
    HttpServerResponse response = request.response();
    if (!mediaTypes.isJson(request.getHeader(HttpHeaders.CONTENT_TYPE))) {
      HttpErrors.reject(response, Refusal.UNSUPPORTED_MEDIA_TYPE,
          "Unsupported Media Type: Content-Type must be application/json");
      return;
    }
    if (!mediaTypes.acceptsJsonAndEventStream(request.getHeader(HttpHeaders.ACCEPT))) {
      HttpErrors.reject(response, Refusal.NOT_ACCEPTABLE,
          "Not Acceptable: Accept must list application/json and text/event-stream");
      return;
    }
    Decoded decoded = endpoint.codec.decode(body == null ? Buffer.buffer() : body);
    if (decoded instanceof Decoded.Invalid invalid) {
      HttpErrors.reject(response, Refusal.BAD_REQUEST, invalid.response().id(), invalid.response().error());
      return;
    }
    if (auth != null && !auth.permits(rc, decoded)) {
      return;
    }
    switch (GenerationPicker.forPost(request, decoded)) {
      case STATELESS -> stateless.post(request, response, decoded, principal);
      case SESSIONS -> posts.post(request, principal, decoded);
    }
  }

  private void get(RoutingContext rc) {
    if (GenerationPicker.forGetOrDelete(rc.request()) == Generation.STATELESS) {
      rejectStatelessStream(rc.response());
      return;
    }
    gets.get(rc);
  }

  private void delete(RoutingContext rc) {
    if (GenerationPicker.forGetOrDelete(rc.request()) == Generation.STATELESS) {
      rejectStatelessStream(rc.response());
      return;
    }
    gets.delete(rc);
  }

  /** Protocol version 2026-07-28 has no GET stream and no sessions to delete. */
  private static void rejectStatelessStream(HttpServerResponse response) {
    response.putHeader("Allow", "POST");
    HttpErrors.reject(response, Refusal.METHOD_NOT_ALLOWED,
        "Method not allowed: protocol version 2026-07-28 uses POST only");
  }

  private void heartbeats() {
    posts.heartbeats();
    gets.heartbeats();
    // A copy: a heartbeat that finds a dead connection ends its stream, which removes it from the set.
    new ArrayList<>(listens).forEach(SseWriter::heartbeat);
  }
}
