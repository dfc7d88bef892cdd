package io.mcpvertx.verticles.impl;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The event-bus protocol between feature verticles (tools, prompts, resources deployed as verticles, possibly on
 * other cluster nodes) and the servers that expose them. Addresses and member names live here and nowhere else.
 *
 * <ul>
 *   <li>{@link #ANNOUNCE} (publish): {@code {kind, key, address, definition}} when a feature verticle starts, and
 *       again whenever a server asks on {@link #DISCOVER}.</li>
 *   <li>{@link #WITHDRAW} (publish): {@code {kind, key, address}} when it stops.</li>
 *   <li>{@code address} (request/reply): {@code {callId, callback, context, ...kind-specific}}; the reply is the
 *       result in its newest wire form, or a failure whose code is the JSON-RPC error code.</li>
 *   <li>{@code address + ".cancel"} (send): {@code {callId, reason}}.</li>
 *   <li>{@code callback} (send, or request/reply for client requests): {@code {type, ...}} for progress, logging,
 *       elicitation, sampling and roots made by the handler while serving the call.</li>
 * </ul>
 */
public final class RemoteProtocol {

  public static final String ANNOUNCE = "mcp.features.announce";
  public static final String WITHDRAW = "mcp.features.withdraw";
  public static final String DISCOVER = "mcp.features.discover";
  public static final String CALL_PREFIX = "mcp.features.call.";
  public static final String CALLBACK_PREFIX = "mcp.features.callback.";
  public static final String CANCEL_SUFFIX = ".cancel";

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
