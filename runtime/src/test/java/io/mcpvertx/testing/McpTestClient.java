package io.mcpvertx.testing;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpSession;
import io.mcpvertx.server.MessageSink;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A fluent client of the 2025 session wire for tests ({@code client.initialize(version).compose(init ->
 * client.toolsCall("echo", args))}): it speaks JSON-RPC frames over a {@link Wire}, answers server-to-client
 * requests with handlers the test registers, keeps every notification, and checks every message the server sends
 * against the official schema of the negotiated revision ({@link #violations()}).
 *
 * <p>Wires: a session of a server in this JVM ({@link #inProcess}), lines of text such as a stdio transport's
 * ({@link #lines}), Streamable HTTP ({@code io.mcpvertx.testing.http.StreamableHttp#sessionClient}), or any
 * {@link Wire} a test supplies. Bad-input tests send raw frames with {@link #send(Buffer)}.
 *
 * <p>All state is confined to the client's context; the public methods may be called from any thread.
 */
public final class McpTestClient {

  /** How frames reach the server. Frames the server sends come back through {@link #receive(Buffer)}. */
  public interface Wire {
    void send(Buffer frame);

    Future<Void> close();

    /** The session this wire talks to, once known (null if the wire has no such notion). */
    default String sessionId() {
      return null;
    }
  }

  private final Context context;
  private Wire wire;
  private String version;
  private long nextId = 1;
  private final Map<Object, Promise<JsonObject>> pending = new HashMap<>();
  private final Map<Object, String> methodsById = new HashMap<>();
  private final Map<String, Function<JsonObject, Future<JsonObject>>> requestHandlers = new HashMap<>();
  private final List<JsonObject> notifications = new CopyOnWriteArrayList<>();
  private final List<JsonObject> serverRequests = new CopyOnWriteArrayList<>();
  private final List<Object> unmatched = new CopyOnWriteArrayList<>();
  private final List<String> violations = new CopyOnWriteArrayList<>();
  private final List<Promise<JsonObject>> notificationWaiters = new ArrayList<>();
  private final java.util.Set<JsonObject> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  private final List<String> notificationWaiterMethods = new ArrayList<>();

  public McpTestClient(Context context) {
    this.context = context;
  }

  public McpTestClient wire(Wire wire) {
    this.wire = wire;
    return this;
  }

  /**
   * A client whose frames are written as lines through {@code writeLine} (newline-delimited JSON, as on stdio);
   * feed it the lines the server writes with {@link #receiveLine}. Closing it runs {@code endOfInput}.
   */
  public static McpTestClient lines(Vertx vertx, Consumer<String> writeLine,
      Runnable endOfInput) {
    McpTestClient client = new McpTestClient(vertx.getOrCreateContext());
    return client.wire(new Wire() {
      @Override
      public void send(Buffer frame) {
        writeLine.accept(frame.toString(StandardCharsets.UTF_8) + "\n");
      }

      @Override
      public Future<Void> close() {
        endOfInput.run();
        return Future.succeededFuture();
      }
    });
  }

  /** Feeds one line the server wrote (see {@link #lines}), from any thread. */
  public void receiveLine(String line) {
    context.runOnContext(v -> receive(Buffer.buffer(line)));
  }

  /**
   * A client talking to a fresh session of {@code server} in this JVM, through the server's codec (so encoding
   * and decoding are exercised as on a real transport).
   */
  public static Future<McpTestClient> inProcess(Vertx vertx, McpServer server) {
    return inProcess(vertx, server, sink -> server.createSession("test-" + System.nanoTime(), sink));
  }

  /** Like {@link #inProcess(Vertx, McpServer)}, for a session owned by an authenticated principal. */
  public static Future<McpTestClient> inProcess(Vertx vertx, McpServer server,
      io.mcpvertx.server.Principal principal) {
    return inProcess(vertx, server, sink -> server.createSession("test-" + System.nanoTime(), sink, principal));
  }

  /**
   * A client talking to a session restored from {@code record}, as another instance would take it over; the
   * messages it receives are checked against the record's revision.
   */
  public static Future<McpTestClient> restored(Vertx vertx, McpServer server,
      io.mcpvertx.spi.sessions.SessionRecord record) {
    return inProcess(vertx, server, sink -> server.restoreSession(record, sink)).map(client -> {
      client.version = record.protocolVersion();
      return client;
    });
  }

  private static Future<McpTestClient> inProcess(Vertx vertx, McpServer server,
      java.util.function.Function<MessageSink, McpSession> sessions) {
    Promise<McpTestClient> promise = Promise.promise();
    vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        McpTestClient client = new McpTestClient(context);
        JsonRpcCodec codec = server.codec();
        MessageSink toClient = client.stream(codec, SESSION_STREAM);
        McpSession session = sessions.apply(toClient);
        client.session = session;
        client.wire(new Wire() {
          @Override
          public void send(Buffer frame) {
            Decoded decoded = codec.decode(frame);
            if (decoded instanceof Decoded.Message m) {
              // Each request gets its own sink, as on a transport with a stream per request, so a test can tell
              // which stream carried what (streamOf).
              session.handle(m.message(), m.message() instanceof JsonRpcRequest request
                  ? client.stream(codec, key(request.id().wireValue())) : toClient);
            } else if (decoded instanceof Decoded.Batch b) {
              session.handleBatch(b.members(), toClient);
            } else if (decoded instanceof Decoded.Invalid invalid) {
              toClient.send(invalid.response());
            }
          }

          @Override
          public Future<Void> close() {
            return session.close();
          }

          @Override
          public String sessionId() {
            return session.id();
          }
        });
        promise.complete(client);
        return Future.succeededFuture();
      }
    });
    return promise.future();
  }

  private McpSession session;

  /** What {@link #streamOf} says of a message the session sent on its own sink, outside any request. */
  public static final String SESSION_STREAM = "session";

  private final Map<JsonObject, Object> streams = java.util.Collections.synchronizedMap(
      new java.util.IdentityHashMap<>());

  /** A sink whose frames are remembered as having come on {@code stream}. */
  private MessageSink stream(JsonRpcCodec codec, Object stream) {
    return new MessageSink() {
      @Override
      public void send(JsonRpcMessage message) {
        receive(codec.encode(message), stream);
      }

      @Override
      public void sendBatch(List<JsonRpcMessage> responses) {
        receive(codec.encodeBatch(responses), stream);
      }
    };
  }

  /**
   * The stream that carried a message of an in-process client: the id of the client request whose sink the
   * server used (a Long for numeric ids), or {@link #SESSION_STREAM}; null when unknown.
   */
  public Object streamOf(JsonObject message) {
    return streams.get(message);
  }

  /** The id of the session this client talks to, once the wire knows it (null if the wire has none). */
  public String sessionId() {
    return wire.sessionId();
  }

  /** The in-process session, when the client was made by {@link #inProcess}. */
  public McpSession session() {
    return session;
  }

  public Context context() {
    return context;
  }

  /** Answers the server's requests for {@code method} (elicitation/create, sampling/createMessage, roots/list). */
  public McpTestClient onRequest(String method, Function<JsonObject, Future<JsonObject>> handler) {
    context.runOnContext(v -> requestHandlers.put(method, handler));
    return this;
  }

  /** initialize, then notifications/initialized; yields the initialize result. */
  public Future<JsonObject> initialize(String protocolVersion, JsonObject capabilities) {
    JsonObject params = new JsonObject()
        .put("protocolVersion", protocolVersion)
        .put("capabilities", capabilities == null ? new JsonObject() : capabilities)
        .put("clientInfo", new JsonObject().put("name", "mcp-test-client").put("version", "1.0.0"));
    return request("initialize", params).compose(response -> {
      if (response.containsKey("error")) {
        return Future.failedFuture(new AssertionError("initialize failed: " + response.encode()));
      }
      JsonObject result = response.getJsonObject("result");
      notify("notifications/initialized", null);
      return Future.succeededFuture(result);
    });
  }

  public Future<JsonObject> initialize(String protocolVersion) {
    return initialize(protocolVersion, new JsonObject());
  }

  /** Sends a request; yields the whole response message (with {@code result} or {@code error}). */
  public Future<JsonObject> request(String method, JsonObject params) {
    Promise<JsonObject> promise = Promise.promise();
    context.runOnContext(v -> {
      long id = nextId++;
      pending.put(id, promise);
      methodsById.put(id, method);
      JsonObject message = new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method);
      if (params != null) {
        message.put("params", params);
      }
      wire.send(message.toBuffer());
    });
    return promise.future();
  }

  /**
   * The handshake of {@link #initialize(String, JsonObject)}, yielding this client; fails unless the server
   * agreed to {@code protocolVersion}.
   */
  public Future<McpTestClient> connect(String protocolVersion, JsonObject capabilities) {
    return initialize(protocolVersion, capabilities).compose(result ->
        protocolVersion.equals(result.getString("protocolVersion")) ? Future.succeededFuture(this)
            : Future.failedFuture(new AssertionError("asked for " + protocolVersion + ", the server answered "
                + result.encode())));
  }

  /** {@code tools/call} with these arguments (null leaves the {@code arguments} member out); yields the result. */
  public Future<JsonObject> toolsCall(String name, JsonObject arguments) {
    JsonObject params = new JsonObject().put("name", name);
    if (arguments != null) {
      params.put("arguments", arguments);
    }
    return call("tools/call", params);
  }

  /** Sends a request and yields its result, failing if the server answered with an error. */
  public Future<JsonObject> call(String method, JsonObject params) {
    return request(method, params).compose(response -> response.containsKey("result")
        ? Future.succeededFuture(response.getJsonObject("result"))
        : Future.failedFuture(new AssertionError(method + " failed: " + response.encode())));
  }

  /** The id the next request will carry (for cancellation tests). */
  public long nextRequestId() {
    return nextId;
  }

  public void notify(String method, JsonObject params) {
    JsonObject message = new JsonObject().put("jsonrpc", "2.0").put("method", method);
    if (params != null) {
      message.put("params", params);
    }
    send(message.toBuffer());
  }

  /** Sends raw bytes, for bad-input tests; responses that match no request land in {@link #unmatched()}. */
  public void send(Buffer frame) {
    context.runOnContext(v -> wire.send(frame));
  }

  /** Sends a batch; yields the server's answer frame (an array), or fails if none comes as an array. */
  public Future<Object> sendBatch(JsonArray batch) {
    Promise<Object> promise = Promise.promise();
    context.runOnContext(v -> {
      for (Object element : batch) {
        JsonObject message = (JsonObject) element;
        if (message.containsKey("id") && message.containsKey("method")) {
          methodsById.put(key(message.getValue("id")), message.getString("method"));
        }
      }
      batchWaiter = promise;
      wire.send(batch.toBuffer());
    });
    return promise.future();
  }

  private Promise<Object> batchWaiter;

  /** Yields the next notification with this method (or one already received and not yet awaited). */
  public Future<JsonObject> awaitNotification(String method) {
    Promise<JsonObject> promise = Promise.promise();
    context.runOnContext(v -> {
      for (JsonObject n : notifications) {
        if (n.getString("method").equals(method) && seen.add(n)) {
          promise.complete(n);
          return;
        }
      }
      notificationWaiters.add(promise);
      notificationWaiterMethods.add(method);
    });
    return promise.future();
  }

  /** Feeds one frame the server sent. */
  public void receive(Buffer frame) {
    receive(frame, null);
  }

  /** Feeds one frame the server sent on {@code stream} (see {@link #streamOf}). */
  public void receive(Buffer frame, Object stream) {
    Object parsed = Json.decodeValue(frame);
    if (stream != null && parsed instanceof JsonObject object) {
      streams.put(object, stream);
    }
    if (parsed instanceof JsonArray array) {
      List<String> problems = version == null ? List.of() : MessageChecker.checkBatch(version, array, methodsById);
      violations.addAll(problems);
      if (batchWaiter != null) {
        Promise<Object> waiter = batchWaiter;
        batchWaiter = null;
        waiter.complete(array);
      } else {
        unmatched.add(array);
      }
      return;
    }
    JsonObject message = (JsonObject) parsed;
    if (message.containsKey("method")) {
      check(message, null);
      if (message.containsKey("id")) {
        serverRequests.add(message);
        answer(message);
      } else {
        notifications.add(message);
        wakeNotificationWaiters(message);
      }
      return;
    }
    Object id = key(message.getValue("id"));
    String method = id == null ? null : methodsById.get(id);
    if ("initialize".equals(method) && message.getValue("result") instanceof JsonObject result) {
      version = result.getString("protocolVersion");
    }
    check(message, method);
    Promise<JsonObject> waiter = id == null ? null : pending.remove(id);
    if (waiter != null) {
      waiter.complete(message);
    } else if (batchWaiter != null && !message.containsKey("method")) {
      Promise<Object> batch = batchWaiter;
      batchWaiter = null;
      batch.complete(message);
    } else {
      unmatched.add(message);
    }
  }

  /** Ids as map keys: JSON numbers may come back as Integer or Long. */
  private static Object key(Object id) {
    return id instanceof Number n ? (Object) n.longValue() : id;
  }

  private void wakeNotificationWaiters(JsonObject message) {
    for (int i = 0; i < notificationWaiters.size(); i++) {
      if (notificationWaiterMethods.get(i).equals(message.getString("method"))) {
        seen.add(message);
        notificationWaiterMethods.remove(i);
        notificationWaiters.remove(i).complete(message);
        return;
      }
    }
  }

  private void check(JsonObject message, String answeredMethod) {
    if (version == null) {
      return;
    }
    for (String problem : MessageChecker.check(version, message, answeredMethod)) {
      violations.add(problem + " in " + message.encode());
    }
  }

  private void answer(JsonObject request) {
    Function<JsonObject, Future<JsonObject>> handler = requestHandlers.get(request.getString("method"));
    Object id = request.getValue("id");
    if (handler == null) {
      wire.send(new JsonObject().put("jsonrpc", "2.0").put("id", id)
          .put("error", new JsonObject().put("code", -32601).put("message", "no handler in test client")).toBuffer());
      return;
    }
    handler.apply(request.getJsonObject("params", new JsonObject())).onComplete(ar -> context.runOnContext(v -> {
      JsonObject response = new JsonObject().put("jsonrpc", "2.0").put("id", id);
      if (ar.succeeded()) {
        if (ar.result() == null) {
          return; // the test wants the server to wait in vain
        }
        response.put("result", ar.result());
      } else {
        response.put("error", new JsonObject().put("code", -32603).put("message", String.valueOf(ar.cause().getMessage())));
      }
      wire.send(response.toBuffer());
    }));
  }

  /** The negotiated revision, or null before initialize. */
  public String version() {
    return version;
  }

  /** Every notification received so far, in order (each one's own JSON). */
  public List<JsonObject> notifications() {
    return notifications;
  }

  public List<JsonObject> notifications(String method) {
    return notifications.stream().filter(n -> method.equals(n.getString("method"))).toList();
  }

  /** Requests the server sent to this client. */
  public List<JsonObject> serverRequests() {
    return serverRequests;
  }

  /** Frames that answered no request of ours (e.g. errors with id null). */
  public List<Object> unmatched() {
    return unmatched;
  }

  /** Schema violations in what the server sent; tests assert this is empty. */
  public List<String> violations() {
    return violations;
  }

  /** Fails the test if anything the server sent broke the schema. */
  public void assertNoViolations() {
    if (!violations.isEmpty()) {
      throw new AssertionError("schema violations: " + violations);
    }
  }

  public Future<Void> close() {
    Promise<Void> promise = Promise.promise();
    context.runOnContext(v -> wire.close().onComplete(promise));
    return promise.future();
  }
}
