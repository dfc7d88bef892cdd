package io.mcpvertx.verticles;

import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpSession;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.Principal;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Objects;

/**
 * One MCP session as a verticle: it owns the session's state on its own event loop and speaks JSON-RPC over
 * the event bus only.
 *
 * <p>Inbound: {@link JsonRpcMessage}s and {@link SessionBatch}es at {@link McpEventBus#sessionAddress}. Each
 * carries a {@link McpEventBus#REPLY_TO} header (where the response and everything emitted while serving it go)
 * and optionally {@link McpEventBus#STREAM}, copied onto those outbound messages. Messages that belong to no
 * request (list changes, resource updates) go to the default outbound address with
 * {@link McpEventBus#UNSOLICITED} set.
 *
 * <p>Undeploying the verticle closes the session: in-flight handlers see a cancellation.
 */
public class McpSessionVerticle extends VerticleBase {

  private static final Logger LOG = System.getLogger(McpSessionVerticle.class.getName());

  private final McpServer server;
  private final String sessionId;
  private final String defaultOutbound;
  private final Principal principal;
  private McpSession session;
  private MessageConsumer<Object> consumer;

  /**
   * @param defaultOutbound where messages that belong to no request go
   * @param principal the session's owner, or null without authorization
   */
  public McpSessionVerticle(McpServer server, String sessionId, String defaultOutbound, Principal principal) {
    this.server = Objects.requireNonNull(server, "server");
    this.sessionId = Objects.requireNonNull(sessionId, "sessionId");
    this.defaultOutbound = Objects.requireNonNull(defaultOutbound, "defaultOutbound");
    this.principal = principal;
  }

  public McpSessionVerticle(McpServer server, String sessionId, String defaultOutbound) {
    this(server, sessionId, defaultOutbound, null);
  }

  /** The session this verticle runs; null before start. Use it only on this verticle's context. */
  public McpSession session() {
    return session;
  }

  @Override
  public Future<?> start() {
    McpEventBus.registerCodecs(vertx);
    EventBus bus = vertx.eventBus();
    DeliveryOptions unsolicited = new DeliveryOptions().addHeader(McpEventBus.UNSOLICITED, "true");
    session = server.createSession(sessionId, new BusSink(bus, defaultOutbound, unsolicited), principal);
    consumer = bus.consumer(McpEventBus.sessionAddress(sessionId), this::onMessage);
    return consumer.completion();
  }

  /**
   * Waits, up to {@code timeoutMs}, for the requests being served to finish; used before a graceful close so
   * answers already on their way are not lost.
   */
  public Future<Void> drain(long timeoutMs) {
    io.vertx.core.Promise<Void> drained = io.vertx.core.Promise.promise();
    context.runOnContext(v -> {
      // Vert.x timers need at least 1 ms; a timeout of 0 (allowed by StdioServerOptions) would throw here
      // and leave the returned future pending forever.
      long timer = vertx.setTimer(Math.max(1, timeoutMs), t -> drained.tryComplete());
      session.idle().onComplete(ar -> {
        vertx.cancelTimer(timer);
        drained.tryComplete();
      });
    });
    return drained.future();
  }

  @Override
  public Future<?> stop() {
    return session.close().eventually(() -> consumer.unregister());
  }

  private void onMessage(Message<Object> message) {
    MultiMap headers = message.headers();
    String replyTo = headers.get(McpEventBus.REPLY_TO);
    String stream = headers.get(McpEventBus.STREAM);
    DeliveryOptions options = new DeliveryOptions();
    if (stream != null) {
      options.addHeader(McpEventBus.STREAM, stream);
    }
    MessageSink sink = new BusSink(vertx.eventBus(), replyTo != null ? replyTo : defaultOutbound, options);
    Object body = message.body();
    if (body instanceof JsonRpcMessage jsonRpc) {
      session.handle(jsonRpc, sink);
    } else if (body instanceof SessionBatch batch) {
      session.handleBatch(batch.members(), sink);
    } else {
      LOG.log(Level.WARNING, "Session " + sessionId + ": ignored an event-bus message of type "
          + (body == null ? "null" : body.getClass().getName()));
    }
  }

  /** Sends a session's output to one event-bus address. */
  private record BusSink(EventBus bus, String address, DeliveryOptions options) implements MessageSink {

    @Override
    public void send(JsonRpcMessage message) {
      bus.send(address, message, options);
    }

    @Override
    public void sendBatch(List<JsonRpcMessage> responses) {
      bus.send(address, SessionBatch.ofResponses(responses), options);
    }

    @Override
    public void abandoned(io.mcpvertx.jsonrpc.JsonRpcId requestId) {
      DeliveryOptions signal = new DeliveryOptions(options).addHeader(McpEventBus.ABANDONED, requestId.encode());
      bus.send(address, null, signal);
    }
  }
}
