package io.mcpvertx.verticles;

import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.verticles.bus.McpEventBus;
import io.mcpvertx.verticles.bus.SessionBatch;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Talks to one {@link McpSessionVerticle} over the event bus as a transport does: every message goes to the
 * session address with its own {@link McpEventBus#REPLY_TO} (and optionally {@link McpEventBus#STREAM}); what
 * comes back there is gathered per message, and what arrives at the default address is kept apart.
 *
 * <p>Thread-safe: handlers run on event loops, tests call from anywhere.
 */
final class BusClient {

  private static final AtomicLong ADDRESSES = new AtomicLong();

  private final Vertx vertx;
  private final EventBus bus;
  private final String sessionId;
  private final String defaultAddress;
  private final List<Message<Object>> unsolicited = new ArrayList<>();
  private final List<Promise<Message<Object>>> waiters = new ArrayList<>();
  private final List<Predicate<Object>> wanted = new ArrayList<>();
  private volatile Function<JsonRpcRequest, JsonRpcMessage> serverRequestAnswers = r -> null;
  private String deploymentId;

  private BusClient(Vertx vertx, String sessionId) {
    this.vertx = vertx;
    this.bus = vertx.eventBus();
    this.sessionId = sessionId;
    this.defaultAddress = "test.default." + sessionId;
  }

  /** Deploys a session verticle of {@code server} and a consumer at its default address. */
  static Future<BusClient> connect(Vertx vertx, McpServer server) {
    McpEventBus.registerCodecs(vertx);
    BusClient client = new BusClient(vertx, "bus-" + ADDRESSES.incrementAndGet());
    MessageConsumer<Object> consumer = client.bus.consumer(client.defaultAddress, client::onUnsolicited);
    return consumer.completion()
        .compose(v -> vertx.deployVerticle(new McpSessionVerticle(server, client.sessionId, client.defaultAddress)))
        .map(id -> {
          client.deploymentId = id;
          return client;
        });
  }

  String sessionId() {
    return sessionId;
  }

  String sessionAddress() {
    return McpEventBus.sessionAddress(sessionId);
  }

  String deploymentId() {
    return deploymentId;
  }

  Future<Void> undeploy() {
    return vertx.undeploy(deploymentId);
  }

  /** How this client answers requests the server sends while serving a message (null: it does not answer). */
  BusClient answerServerRequests(Function<JsonRpcRequest, JsonRpcMessage> answers) {
    serverRequestAnswers = answers;
    return this;
  }

  /**
   * Sends a request (or a batch) with a fresh REPLY_TO; yields everything that arrived there, in order, up to and
   * including the response (or batch of responses).
   */
  Future<List<Message<Object>>> exchange(Object message, String stream) {
    String replyTo = "test.reply." + ADDRESSES.incrementAndGet();
    List<Message<Object>> received = new CopyOnWriteArrayList<>();
    Promise<List<Message<Object>>> answered = Promise.promise();
    MessageConsumer<Object> consumer = bus.consumer(replyTo, m -> {
      received.add(m);
      Object body = m.body();
      if (body instanceof JsonRpcRequest serverRequest) {
        JsonRpcMessage answer = serverRequestAnswers.apply(serverRequest);
        if (answer != null) {
          send(answer, replyTo, stream);
        }
      } else if (body instanceof JsonRpcResponse || body instanceof JsonRpcErrorResponse
          || body instanceof SessionBatch) {
        answered.tryComplete(List.copyOf(received));
      }
    });
    return consumer.completion()
        .compose(v -> {
          send(message, replyTo, stream);
          return answered.future();
        })
        .eventually(consumer::unregister);
  }

  Future<List<Message<Object>>> exchange(Object message) {
    return exchange(message, null);
  }

  /** Sends a message whose answers (if any) nobody waits for. */
  void send(Object message, String replyTo, String stream) {
    DeliveryOptions options = new DeliveryOptions();
    if (replyTo != null) {
      options.addHeader(McpEventBus.REPLY_TO, replyTo);
    }
    if (stream != null) {
      options.addHeader(McpEventBus.STREAM, stream);
    }
    bus.send(sessionAddress(), message, options);
  }

  /** initialize then notifications/initialized; yields the initialize result. */
  Future<JsonObject> initialize(String version, JsonObject capabilities) {
    return exchange(initializeRequest(1, version, capabilities)).map(replies -> {
      JsonObject result = ((JsonRpcResponse) last(replies).body()).result();
      send(new JsonRpcNotification("notifications/initialized", null), "test.nowhere", null);
      return result;
    });
  }

  /** Yields the next message at the default address whose method is {@code method}, or one not yet awaited. */
  Future<Message<Object>> awaitUnsolicited(String method) {
    return awaitUnsolicited(body -> method.equals(methodOf(body)));
  }

  /** Like {@link #awaitUnsolicited(String)} for a response that arrived at the default address. */
  Future<Message<Object>> awaitUnsolicitedResponse() {
    return awaitUnsolicited(body -> body instanceof JsonRpcResponse || body instanceof JsonRpcErrorResponse);
  }

  private Future<Message<Object>> awaitUnsolicited(Predicate<Object> match) {
    synchronized (this) {
      for (int i = 0; i < unsolicited.size(); i++) {
        if (match.test(unsolicited.get(i).body())) {
          return Future.succeededFuture(unsolicited.remove(i));
        }
      }
      Promise<Message<Object>> promise = Promise.promise();
      waiters.add(promise);
      wanted.add(match);
      return promise.future();
    }
  }

  private void onUnsolicited(Message<Object> message) {
    Promise<Message<Object>> waiter = null;
    synchronized (this) {
      for (int i = 0; i < wanted.size() && waiter == null; i++) {
        if (wanted.get(i).test(message.body())) {
          wanted.remove(i);
          waiter = waiters.remove(i);
        }
      }
      if (waiter == null) {
        unsolicited.add(message);
      }
    }
    if (waiter != null) {
      waiter.complete(message);
    }
  }

  static JsonRpcRequest initializeRequest(long id, String version, JsonObject capabilities) {
    return new JsonRpcRequest(JsonRpcId.of(id), "initialize", new JsonObject()
        .put("protocolVersion", version)
        .put("capabilities", capabilities == null ? new JsonObject() : capabilities)
        .put("clientInfo", new JsonObject().put("name", "bus-client").put("version", "1.0.0")));
  }

  static Message<Object> last(List<Message<Object>> replies) {
    return replies.get(replies.size() - 1);
  }

  private static String methodOf(Object body) {
    if (body instanceof JsonRpcNotification n) {
      return n.method();
    }
    return body instanceof JsonRpcRequest r ? r.method() : null;
  }
}
