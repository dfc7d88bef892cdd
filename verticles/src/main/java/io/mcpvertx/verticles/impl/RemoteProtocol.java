package io.mcpvertx.verticles.impl;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The event-bus protocol between feature verticles (tools, prompts, resources deployed as verticles, possibly on
 * other cluster nodes) and the servers that expose them. Addresses and member names live here and nowhere else.
 *
 * <ul>
 *   <li>{@link #ANNOUNCE} (publish): {@code {kind, key, address, node, definition}} when a feature verticle
 *       starts, and again whenever a server asks on {@link #DISCOVER}. {@code node} is the verticle's cluster node
 *       id, absent when its Vert.x is not clustered: servers drop the feature when that node leaves.</li>
 *   <li>{@link #WITHDRAW} (publish): {@code {kind, key, address, node}} when it stops.</li>
 *   <li>{@code address} (request/reply): {@code {callId, callback, context, ...kind-specific}}; the reply is the
 *       result in its newest wire form, or (for an {@link McpException}) the JSON-RPC error object with the
 *       {@link #ERROR_HEADER} set, or a failure whose code is the JSON-RPC error code.</li>
 *   <li>{@code address + ".cancel"} (send): {@code {callId, reason}}.</li>
 *   <li>{@code callback} (send, or request/reply for client requests): {@code {type, ...}} for progress, logging,
 *       elicitation, sampling and roots made by the handler while serving the call; replies as above. Before
 *       answering a call that sent any, the feature verticle sends {@code {type: flush}} there and waits for its
 *       reply, so the call's reply cannot overtake them.</li>
 * </ul>
 */
public final class RemoteProtocol {

  public static final String ANNOUNCE = "mcp.features.announce";
  public static final String WITHDRAW = "mcp.features.withdraw";
  public static final String DISCOVER = "mcp.features.discover";
  public static final String CALL_PREFIX = "mcp.features.call.";
  public static final String CALLBACK_PREFIX = "mcp.features.callback.";
  public static final String CANCEL_SUFFIX = ".cancel";
  /**
   * Header of a reply whose body is a JSON-RPC error object. An event-bus failure carries only a code and a
   * message, so an {@link McpException}'s {@code data} would be lost on the way.
   */
  public static final String ERROR_HEADER = "mcp-error";

  public static final String KIND_TOOL = "tool";
  public static final String KIND_PROMPT = "prompt";
  public static final String KIND_RESOURCE = "resource";

  private static final SecureRandom RANDOM = new SecureRandom();

  private RemoteProtocol() {
  }

  /** An unguessable id for addresses and calls. */
  public static String randomId() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /** Answers {@code request} with {@code failure}'s JSON-RPC error, data included. */
  public static void replyError(Message<?> request, McpException failure) {
    request.reply(failure.error().toJson(), new DeliveryOptions().addHeader(ERROR_HEADER, "true"));
  }

  /** The result a reply carries, or the {@link McpException} of a reply made by {@link #replyError}. */
  public static Future<JsonObject> result(Message<JsonObject> reply) {
    if (reply.headers().contains(ERROR_HEADER)) {
      return Future.failedFuture(new McpException(JsonRpcError.fromJson(reply.body())));
    }
    return Future.succeededFuture(reply.body());
  }

  /** Turns an event-bus failure of a remote call into the JSON-RPC error the client should see. */
  public static McpException toMcpException(Throwable failure, String what) {
    if (failure instanceof McpException mcp) {
      return mcp;
    }
    if (failure instanceof ReplyException reply) {
      if (reply.failureType() == ReplyFailure.RECIPIENT_FAILURE) {
        return new McpException(reply.failureCode(), reply.getMessage());
      }
      if (reply.failureType() == ReplyFailure.TIMEOUT) {
        return new McpException(JsonRpcErrorCodes.REQUEST_TIMEOUT, what + " did not answer in time");
      }
      return new McpException(JsonRpcErrorCodes.INTERNAL_ERROR, what + " is not available right now");
    }
    return new McpException(JsonRpcErrorCodes.INTERNAL_ERROR, "Internal error calling " + what);
  }
}
