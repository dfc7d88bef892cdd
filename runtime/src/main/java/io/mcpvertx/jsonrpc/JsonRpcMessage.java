package io.mcpvertx.jsonrpc;

import io.vertx.core.json.JsonObject;

/**
 * One JSON-RPC 2.0 message. The four kinds are told apart by which members are present, exactly as the
 * specification defines them; {@link JsonRpcCodec} does the classification.
 *
 * <p>Messages are values: once built they are never mutated, which is what lets the event-bus codec hand the
 * same instance across a local hop instead of copying it. The {@link JsonObject} members are shared, so callers
 * must not mutate them after handing a message over.
 */
public sealed interface JsonRpcMessage
    permits JsonRpcRequest, JsonRpcNotification, JsonRpcResponse, JsonRpcErrorResponse {

  /** The message in its wire shape. */
  JsonObject toJson();
}
