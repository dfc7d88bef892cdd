package io.mcpvertx.verticles.bus;

import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageCodec;

/**
 * The event-bus conventions of MCP verticles: addresses, headers, and the codecs that carry JSON-RPC messages.
 *
 * <p>On a local hop the codecs hand over the message object itself (messages are immutable values); on a
 * clustered event bus they write the JSON-RPC wire form, so the same verticles work in both.
 */
public final class McpEventBus {

  /** Header naming the address where everything emitted while serving a message must go. */
  public static final String REPLY_TO = "mcp-reply-to";
  /**
   * Header a transport sets on an inbound message to tell its streams apart; the session copies it onto every
   * outbound message the request causes.
   */
  public static final String STREAM = "mcp-stream";
  /** Header on outbound messages that belong to no request (they go to the session's default stream). */
  public static final String UNSOLICITED = "mcp-unsolicited";

  /**
   * Header of an outbound message with no body: the request whose encoded id it holds ended without a response
   * (cancelled, or the session closed).
   */
  public static final String ABANDONED = "mcp-abandoned";

  /**
   * Header a transport sets on an inbound request when it can close the request's stream and let the client
   * resume it (SEP-1699); handlers may then ask for that.
   */
  public static final String RESUMABLE = "mcp-resumable";

  /**
   * Header of an outbound message with no body: close the connection of the stream, after a {@code retry} of the
   * header's value in milliseconds, without ending the stream (the client resumes it with {@code Last-Event-ID}).
   */
  public static final String CLOSE_SSE_STREAM = "mcp-close-sse-stream";

  private static final String SESSION_PREFIX = "mcp.session.";

  private McpEventBus() {
  }

  /** Where the verticle of session {@code sessionId} consumes inbound messages. */
  public static String sessionAddress(String sessionId) {
    return SESSION_PREFIX + sessionId;
  }

  /**
   * Registers the MCP message codecs as default codecs on this Vert.x instance. Idempotent; every component
   * that sends MCP messages calls it.
   */
  public static void registerCodecs(Vertx vertx) {
    EventBus bus = vertx.eventBus();
    register(bus, JsonRpcRequest.class, new JsonRpcMessageCodec("mcp-jsonrpc-request"));
    register(bus, JsonRpcNotification.class, new JsonRpcMessageCodec("mcp-jsonrpc-notification"));
    register(bus, JsonRpcResponse.class, new JsonRpcMessageCodec("mcp-jsonrpc-response"));
    register(bus, JsonRpcErrorResponse.class, new JsonRpcMessageCodec("mcp-jsonrpc-error"));
    register(bus, SessionBatch.class, new SessionBatchCodec());
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void register(EventBus bus, Class<?> type, MessageCodec codec) {
    try {
      bus.registerDefaultCodec((Class) type, codec);
    } catch (IllegalStateException alreadyRegistered) {
      // Another component of this Vert.x instance registered it first; one registration is all we need.
    }
  }
}
