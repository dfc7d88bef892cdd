package io.mcpvertx.verticles.impl;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.verticles.bus.McpEventBus;
import io.mcpvertx.verticles.bus.SessionBatch;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import java.util.List;

/**
 * Sends a session's output to one event-bus address: the transport's exchange that asked (its {@code REPLY_TO}), or
 * the default address for what belongs to no request. What is not a message travels as a bodiless send with a
 * header that says what it is.
 */
record BusSink(EventBus bus, String address, DeliveryOptions options, boolean resumable) implements MessageSink {

  @Override
  public void closeSseStream(long retryMs) {
    bus.send(address, null, new DeliveryOptions(options).addHeader(McpEventBus.CLOSE_SSE_STREAM,
        Long.toString(retryMs)));
  }

  @Override
  public void send(JsonRpcMessage message) {
    bus.send(address, message, options);
  }

  @Override
  public void sendBatch(List<JsonRpcMessage> responses) {
    bus.send(address, SessionBatch.ofResponses(responses), options);
  }

  @Override
  public void abandoned(JsonRpcId requestId) {
    bus.send(address, null, new DeliveryOptions(options).addHeader(McpEventBus.ABANDONED, requestId.encode()));
  }
}
