package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.Principal;
import io.mcpvertx.spi.UnknownEventException;
import io.mcpvertx.verticles.McpEventBus;
import io.mcpvertx.verticles.SessionBatch;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.http.impl.HttpErrors.Refusal;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.CorsHandler;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One HTTP verticle of the endpoint. It holds connections only: requests go to session verticles over the event
 * bus, and what sessions emit comes back to this verticle's router address, tagged with the stream it belongs to.
 *
 * <p>Everything here is confined to this verticle's event loop; what is shared between verticles lives in
 * {@link HttpEndpoint}.
 */
final class McpHttpVerticle extends VerticleBase {

  private static final Logger LOG = System.getLogger(McpHttpVerticle.class.getName());
  private static final String JSON = "application/json";
  private static final String EVENT_STREAM = "text/event-stream";
  /** Session ids we issue are 32 characters; a longer one is not worth a session-store lookup. */
  private static final int MAX_SESSION_ID_LENGTH = 128;
  /** How long a 202 waits for the session to store what a notification changed before it goes anyway. */
  private static final long STORED_ACK_TIMEOUT_MS = 10_000;

  private final HttpEndpoint endpoint;
  private final int port;
  private final Map<String, PostExchange> exchanges = new HashMap<>();
  private final Set<GetStream> gets = new HashSet<>();
  private final Set<SseWriter> listens = new HashSet<>();
  private StatelessHttp stateless;
  private String routerAddress;
  private MessageConsumer<Object> router;
  private HttpServer http;
  private long heartbeat = -1;

  McpHttpVerticle(HttpEndpoint endpoint, int port) {
    this.endpoint = endpoint;
    this.port = port;
  }

  int actualPort() {
    return http.actualPort();
  }

  @Override
  public Future<?> start() {
    McpEventBus.registerCodecs(vertx);
    McpHttpServerOptions options = endpoint.options;
    routerAddress = "mcp.http.router." + HttpEndpoint.randomId(9);
    stateless = new StatelessHttp(endpoint, listens);
    router = vertx.eventBus().consumer(routerAddress, this::route);
    String path = options.getPath();
    Router web = Router.router(vertx);
    HealthRoutes.install(web, options, endpoint.readiness);
    List<Handler<RoutingContext>> front = new ArrayList<>();
    if (options.isCors()) {
      CorsHandler cors = CorsHandler.create();
      if (options.getAllowedOrigins().isEmpty()) {
        cors.addOriginWithRegex("^https?://(localhost|127(\\.[0-9]+){3}|\\[::1])(:[0-9]+)?$");
      } else {
        cors.addOrigins(options.getAllowedOrigins());
      }
      front.add(cors
          .allowedMethods(Set.of(HttpMethod.GET, HttpMethod.POST, HttpMethod.DELETE, HttpMethod.OPTIONS))
          .allowedHeaders(McpHeaders.CORS_ALLOWED)
          .exposedHeaders(McpHeaders.CORS_EXPOSED));
    }
    front.add(this::guard);
    front.forEach(handler -> web.route(path).handler(handler));
    AuthGate auth = endpoint.auth();
    if (auth != null) {
      // Every method is authenticated, before anything else is read (the body included).
      web.route(path).handler(auth::authenticate);
      auth.installMetadataRoutes(web, front);
    }
    web.post(path).handler(BodyHandler.create(false).setBodyLimit(options.getMaxBodyBytes())).handler(this::post);
    web.get(path).handler(this::get);
    web.delete(path).handler(this::delete);
    web.route(path).handler(rc -> {
      rc.response().putHeader("Allow", "GET, POST, DELETE");
      HttpErrors.reject(rc.response(), Refusal.METHOD_NOT_ALLOWED, "Method not allowed");
    });
    web.route(path).failureHandler(this::failed);
    http = vertx.createHttpServer(new HttpServerOptions()
        .setHost(options.getHost())
        .setPort(port)
        .setHttp2ClearTextEnabled(true));
    heartbeat = vertx.setPeriodic(options.getHeartbeatIntervalMs(), t -> heartbeats());
    return router.completion().compose(v -> http.requestHandler(web).listen());
  }

  /**
   * Stops taking connections and requests, ends the GET and listen streams (their clients resume elsewhere), and
   * completes once the requests in flight are answered or {@code timeoutMs} has passed.
   */
  Future<Void> drain(long timeoutMs) {
    io.vertx.core.Promise<Void> drained = io.vertx.core.Promise.promise();
    context.runOnContext(v -> {
      new ArrayList<>(gets).forEach(GetStream::end);
      new ArrayList<>(listens).forEach(SseWriter::end);
      http.shutdown(timeoutMs, java.util.concurrent.TimeUnit.MILLISECONDS).onComplete(ar -> drained.complete());
    });
    return drained.future();
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(heartbeat);
    new ArrayList<>(gets).forEach(GetStream::end);
    return http.close().eventually(() -> router.unregister());
  }

  // ---- checks every method passes ----

  private void guard(RoutingContext rc) {
    HttpServerRequest request = rc.request();
    String problem = endpoint.guard.checkHost(request);
    if (problem == null) {
      problem = endpoint.guard.checkOrigin(request);
    }
    if (problem != null) {
      HttpErrors.reject(rc.response(), Refusal.FORBIDDEN, "Forbidden: " + problem);
      return;
    }
    rc.next();
  }

  /** A route failed: the body handler's 413, or an unexpected exception (500). Either way a JSON-RPC body. */
  private void failed(RoutingContext rc) {
    if (rc.statusCode() == 413) {
      HttpErrors.reject(rc.response(), Refusal.PAYLOAD_TOO_LARGE,
          "Payload Too Large: the body exceeds " + endpoint.options.getMaxBodyBytes() + " bytes");
    } else {
      LOG.log(Level.ERROR, "Request failed", rc.failure());
      HttpErrors.reject(rc.response(), Refusal.INTERNAL, JsonRpcErrorCodes.INTERNAL_ERROR, "Internal error");
    }
  }

  /**
   * Hands the session a request names to {@code then}, after answering 400 (no header) or 404 (unknown, ended,
   * expired, or another principal's) itself. A session this endpoint does not hold is looked up in the shared
   * session store, if any, and restored here; one it holds costs no store round trip.
   */
  private void withSession(RoutingContext rc, Handler<HttpSession> then) {
    String id = rc.request().getHeader(McpHeaders.SESSION_ID);
    if (id == null) {
      HttpErrors.reject(rc.response(), Refusal.BAD_REQUEST, "Bad Request: the " + McpHeaders.SESSION_ID + " header is required");
      return;
    }
    HttpSession session = endpoint.session(id);
    if (session != null) {
      admit(rc, session, then);
      return;
    }
    if (!endpoint.sharesSessions() || id.length() > MAX_SESSION_ID_LENGTH) {
      HttpErrors.reject(rc.response(), Refusal.SESSION_NOT_FOUND, "Session not found");
      return;
    }
    endpoint.restoreSession(id, AuthGate.principal(rc)).onComplete(ar -> {
      if (ar.failed()) {
        rc.response().putHeader("Retry-After", "5");
        if (ar.cause() instanceof HttpEndpoint.SessionLimitException) {
          HttpErrors.reject(rc.response(), Refusal.UNAVAILABLE, JsonRpcErrorCodes.SERVER_OVERLOADED,
              "Service Unavailable: the server holds as many sessions as it may; retry later");
        } else {
          LOG.log(Level.WARNING, () -> "The session store did not answer: " + ar.cause());
          HttpErrors.reject(rc.response(), Refusal.UNAVAILABLE, "Service Unavailable: the session store did not answer");
        }
      } else if (ar.result() == null) {
        HttpErrors.reject(rc.response(), Refusal.SESSION_NOT_FOUND, "Session not found");
      } else {
        admit(rc, ar.result(), then);
      }
    });
  }

  private void admit(RoutingContext rc, HttpSession session, Handler<HttpSession> then) {
    Principal principal = AuthGate.principal(rc);
    if (!session.ownedBy(principal)) {
      // Answered as an unknown session: whether another caller's session exists is none of this caller's business.
      LOG.log(Level.WARNING, () -> "Refused " + (principal == null ? "an anonymous caller" : principal.key())
          + " the session of another principal");
      HttpErrors.reject(rc.response(), Refusal.SESSION_NOT_FOUND, "Session not found");
      return;
    }
    String version = rc.request().getHeader(McpHeaders.PROTOCOL_VERSION);
    // A session speaks a session revision; 2026-07-28 has no sessions.
    if (version != null && ProtocolVersion.fromId(version).filter(v -> !v.supports(ProtocolFeature.STATELESS))
        .isEmpty()) {
      HttpErrors.reject(rc.response(), Refusal.BAD_REQUEST, "Bad Request: unsupported " + McpHeaders.PROTOCOL_VERSION + ": " + version);
      return;
    }
    endpoint.used(session);
    then.handle(session);
  }

  // ---- POST ----

  private void post(RoutingContext rc) {
    HttpServerRequest request = rc.request();
    HttpServerResponse response = rc.response();
    if (!RequestGuard.isJson(request.getHeader("Content-Type"))) {
      HttpErrors.reject(response, Refusal.UNSUPPORTED_MEDIA_TYPE, "Unsupported Media Type: Content-Type must be application/json");
      return;
    }
    String accept = request.getHeader("Accept");
    if (!RequestGuard.accepts(accept, JSON) || !RequestGuard.accepts(accept, EVENT_STREAM)) {
      HttpErrors.reject(response, Refusal.NOT_ACCEPTABLE, "Not Acceptable: Accept must list application/json and text/event-stream");
      return;
    }
    Buffer body = rc.body().buffer();
    Decoded decoded = endpoint.codec.decode(body == null ? Buffer.buffer() : body);
    if (decoded instanceof Decoded.Invalid invalid) {
      HttpErrors.reject(response, Refusal.BAD_REQUEST, invalid.response().id(), invalid.response().error());
      return;
    }
    AuthGate auth = endpoint.auth();
    if (auth != null && !auth.permits(rc, decoded)) {
      return;
    }
    if (StatelessHttp.isStateless(request, decoded)) {
      stateless.post(request, response, decoded, AuthGate.principal(rc));
      return;
    }
    if (decoded instanceof Decoded.Message m && m.message() instanceof JsonRpcRequest r
        && r.method().equals("initialize")) {
      initialize(rc, r);
      return;
    }
    withSession(rc, session -> {
      if (decoded instanceof Decoded.Batch batch) {
        postBatch(session, batch, response);
        return;
      }
      JsonRpcMessage message = ((Decoded.Message) decoded).message();
      if (message instanceof JsonRpcRequest r) {
        exchange(session, response, message, List.of(r.id()), false, false);
        return;
      }
      if (message instanceof JsonRpcNotification n && n.method().equals("notifications/initialized")) {
        session.initialized = true;
      }
      accept(session, message, response);
    });
  }

  /**
   * Hands the session what needs no answer and answers 202. With shared stores the 202 waits until the session has
   * stored what the message changed ({@code notifications/initialized}), so the client may go on on any instance.
   */
  private void accept(HttpSession session, Object body, HttpServerResponse response) {
    if (!endpoint.sharesSessions()) {
      vertx.eventBus().send(HttpEndpoint.sessionAddress(session), body);
      response.setStatusCode(202).end();
      return;
    }
    vertx.eventBus().request(HttpEndpoint.sessionAddress(session), body,
            new DeliveryOptions().setSendTimeout(STORED_ACK_TIMEOUT_MS))
        .onComplete(ar -> {
          if (!response.ended() && !response.closed()) {
            response.setStatusCode(202).end();
          }
        });
  }

  private void initialize(RoutingContext rc, JsonRpcRequest request) {
    HttpServerResponse response = rc.response();
    if (rc.request().getHeader(McpHeaders.SESSION_ID) != null) {
      HttpErrors.reject(response, Refusal.BAD_REQUEST, JsonRpcErrorCodes.INVALID_REQUEST,
          "Invalid Request: initialize must not carry " + McpHeaders.SESSION_ID);
      return;
    }
    endpoint.createSession(AuthGate.principal(rc)).onComplete(ar -> {
      if (ar.failed()) {
        if (ar.cause() instanceof HttpEndpoint.SessionLimitException) {
          response.putHeader("Retry-After", "5");
          HttpErrors.reject(response, Refusal.UNAVAILABLE, JsonRpcErrorCodes.SERVER_OVERLOADED,
              "Service Unavailable: the server holds as many sessions as it may; retry later");
        } else if (ar.cause() instanceof HttpEndpoint.StoreUnavailableException) {
          LOG.log(Level.WARNING, () -> "No session could start: " + ar.cause().getMessage());
          response.putHeader("Retry-After", "2");
          HttpErrors.reject(response, Refusal.UNAVAILABLE, "Service Unavailable: a store did not answer; retry later");
        } else {
          HttpErrors.reject(response, Refusal.INTERNAL, JsonRpcErrorCodes.INTERNAL_ERROR, "Internal error: no session could start");
        }
        return;
      }
      HttpSession session = ar.result();
      response.putHeader(McpHeaders.SESSION_ID, session.id);
      exchange(session, response, request, List.of(request.id()), false, true);
    });
  }

  private void postBatch(HttpSession session, Decoded.Batch batch, HttpServerResponse response) {
    ProtocolVersion version = session.version;
    if (version != null && !version.supports(ProtocolFeature.BATCHING)) {
      HttpErrors.reject(response, Refusal.BAD_REQUEST, JsonRpcErrorCodes.INVALID_REQUEST,
          "Invalid Request: JSON-RPC batches are not supported by protocol version " + version.id());
      return;
    }
    List<JsonRpcId> ids = new ArrayList<>();
    boolean answerable = false;
    for (Decoded member : batch.members()) {
      if (member instanceof Decoded.Message m && m.message() instanceof JsonRpcNotification n
          && n.method().equals("notifications/initialized")) {
        session.initialized = true;
      }
      if (member instanceof Decoded.Message m && m.message() instanceof JsonRpcRequest r) {
        ids.add(r.id());
        answerable = true;
      } else if (member instanceof Decoded.Invalid) {
        answerable = true;
      }
    }
    SessionBatch body = new SessionBatch(batch.members());
    if (!answerable) {
      accept(session, body, response);
      return;
    }
    exchange(session, response, body, ids, true, false);
  }

  private void exchange(HttpSession session, HttpServerResponse response, Object body, List<JsonRpcId> ids,
      boolean batch, boolean initialize) {
    String streamId = endpoint.producers.postStreamId(ids, batch);
    PostExchange exchange = new PostExchange(endpoint, session, streamId, response,
        endpoint.options.getResponseMode(), ids, batch, initialize, () -> {
          exchanges.remove(streamId);
          session.closers.remove(streamId);
        });
    exchanges.put(streamId, exchange);
    session.closers.put(streamId, () -> context.runOnContext(v -> exchange.sessionClosed()));
    if (session.closed.get()) {
      exchange.sessionClosed();
      return;
    }
    vertx.eventBus().send(HttpEndpoint.sessionAddress(session), body, new DeliveryOptions()
        .addHeader(McpEventBus.REPLY_TO, routerAddress)
        .addHeader(McpEventBus.STREAM, streamId));
  }

  /** What a session sends back for a POST stream of this verticle. */
  private void route(Message<Object> message) {
    PostExchange exchange = exchanges.get(message.headers().get(McpEventBus.STREAM));
    if (exchange == null) {
      return; // the exchange ended (answered, or its session closed): nothing waits for this any more
    }
    String abandoned = message.headers().get(McpEventBus.ABANDONED);
    Object body = message.body();
    if (abandoned != null) {
      exchange.abandoned(JsonRpcId.decode(abandoned));
    } else if (body instanceof JsonRpcMessage jsonRpc) {
      exchange.deliver(jsonRpc);
    } else if (body instanceof SessionBatch batch) {
      exchange.deliverBatch(batch.messages());
    }
  }

  // ---- GET ----

  private void get(RoutingContext rc) {
    HttpServerResponse response = rc.response();
    if (StatelessHttp.isStatelessStreamRequest(rc.request())) {
      rejectStatelessStream(response);
      return;
    }
    if (!RequestGuard.accepts(rc.request().getHeader("Accept"), EVENT_STREAM)) {
      HttpErrors.reject(response, Refusal.NOT_ACCEPTABLE, "Not Acceptable: a GET stream needs Accept: text/event-stream");
      return;
    }
    withSession(rc, session -> get(rc, session));
  }

  private void get(RoutingContext rc, HttpSession session) {
    HttpServerResponse response = rc.response();
    String lastEventId = rc.request().getHeader(McpHeaders.LAST_EVENT_ID);
    if (lastEventId == null) {
      if (!session.followed.add(session.standaloneStream)) {
        HttpErrors.reject(response, Refusal.CONFLICT, "Conflict: this session already has an open GET stream");
        return;
      }
      track(session, GetStream.standalone(endpoint, session, response, stream -> untrack(session, stream)));
      return;
    }
    String streamId = endpoint.events.streamOf(lastEventId);
    if (streamId == null) {
      HttpErrors.reject(response, Refusal.BAD_REQUEST, "Bad Request: unknown Last-Event-ID");
      return;
    }
    if (!session.followed.add(streamId)) {
      HttpErrors.reject(response, Refusal.CONFLICT, "Conflict: another GET is delivering this stream");
      return;
    }
    GetStream.resume(endpoint, session, streamId, lastEventId, response, stream -> untrack(session, stream))
        .onSuccess(stream -> track(session, stream))
        .onFailure(failure -> {
          session.followed.remove(streamId);
          if (failure instanceof UnknownEventException) {
            HttpErrors.reject(response, Refusal.BAD_REQUEST, "Bad Request: unknown or expired Last-Event-ID");
          } else {
            HttpErrors.reject(response, Refusal.UNAVAILABLE, "Service Unavailable: the event store did not answer");
          }
        });
  }

  private void track(HttpSession session, GetStream stream) {
    gets.add(stream);
    session.closers.put(stream, () -> context.runOnContext(v -> stream.end()));
    if (session.closed.get()) {
      stream.end();
    }
  }

  private void untrack(HttpSession session, GetStream stream) {
    gets.remove(stream);
    session.closers.remove(stream);
  }

  // ---- DELETE ----

  private void delete(RoutingContext rc) {
    if (StatelessHttp.isStatelessStreamRequest(rc.request())) {
      rejectStatelessStream(rc.response());
      return;
    }
    withSession(rc, session -> endpoint.deleteSession(session).onComplete(ar -> {
      if (ar.succeeded()) {
        rc.response().setStatusCode(200).end();
      } else {
        // Ended here, but another instance could still restore it: the client should delete it again.
        LOG.log(Level.WARNING, () -> "Session " + session.id + ": removing its stored record failed: " + ar.cause());
        rc.response().putHeader("Retry-After", "5");
        HttpErrors.reject(rc.response(), Refusal.UNAVAILABLE, "Service Unavailable: the session store did not answer");
      }
    }));
  }

  /** Protocol version 2026-07-28 has no GET stream and no sessions to delete. */
  private static void rejectStatelessStream(HttpServerResponse response) {
    response.putHeader("Allow", "POST");
    HttpErrors.reject(response, Refusal.METHOD_NOT_ALLOWED, "Method not allowed: protocol version 2026-07-28 uses POST only");
  }

  private void heartbeats() {
    // Copies: a heartbeat that finds a dead connection ends its stream, which removes it from these collections.
    new ArrayList<>(exchanges.values()).forEach(PostExchange::heartbeat);
    new ArrayList<>(gets).forEach(GetStream::heartbeat);
    new ArrayList<>(listens).forEach(SseWriter::heartbeat);
  }
}
