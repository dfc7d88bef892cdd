package io.mcpvertx.verticles;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.verticles.bus.McpEventBus;
import io.mcpvertx.verticles.bus.SessionBatch;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The event bus transport of the test clients, usable raw: it talks to one {@link McpSessionVerticle} as a transport
 * does. Raw, every message goes to the session address with its own {@link McpEventBus#REPLY_TO} (and optionally
 * {@link McpEventBus#STREAM}); what comes back there is gathered per message, and what arrives at the default address
 * is kept apart. {@link #sessionClient()} puts an {@link McpTestClient} on top, for tests of the protocol rather than
 * of the bus.
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
  private volatile Consumer<Message<Object>> unsolicitedTap;
  private String deploymentId;
  private JsonRpcCodec codec;

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
    client.codec = server.codec();
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

  /**
   * An {@link McpTestClient} on this session: each frame it sends is decoded with the server's codec and sent to
   * the session address with one REPLY_TO for the client's lifetime; whatever arrives there or at the default
   * address is encoded back and handed to the client. Closing the client undeploys the session verticle.
   */
  Future<McpTestClient> sessionClient() {
    McpTestClient client = new McpTestClient(vertx.getOrCreateContext());
    String replyTo = "test.reply." + ADDRESSES.incrementAndGet();
    Consumer<Message<Object>> toClient = m -> client.context().runOnContext(v -> client.receive(encode(m.body())));
    MessageConsumer<Object> consumer = bus.consumer(replyTo, toClient::accept);
    unsolicitedTap = toClient;
    client.wire(new McpTestClient.Wire() {
      @Override
      public void send(Buffer frame) {
        Decoded decoded = codec.decode(frame);
        if (decoded instanceof Decoded.Message m) {
          BusClient.this.send(m.message(), replyTo, null);
        } else if (decoded instanceof Decoded.Batch b) {
          BusClient.this.send(new SessionBatch(b.members()), replyTo, null);
        } else if (decoded instanceof Decoded.Invalid invalid) {
          client.receive(codec.encode(invalid.response()));
        }
      }

      @Override
      public Future<Void> close() {
        return consumer.unregister().compose(v -> undeploy());
      }

      @Override
      public String sessionId() {
        return BusClient.this.sessionId;
      }
    });
    return consumer.completion().map(client);
  }

  private Buffer encode(Object body) {
    if (body instanceof SessionBatch batch) {
      return codec.encodeBatch(batch.messages());
    }
    return codec.encode((JsonRpcMessage) body);
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
    Consumer<Message<Object>> tap = unsolicitedTap;
    if (tap != null) {
      tap.accept(message);
      return;
    }
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
