package io.mcpvertx.verticles.bus;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.jsonrpc.JsonRpcCodecOptions;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageCodec;

/**
 * Carries {@link JsonRpcMessage}s on the event bus. Locally the message object itself is delivered (no copy, no
 * serialisation: messages are immutable). Across a cluster it is written as its JSON-RPC wire form, prefixed by
 * its length, and read back through the same codec that reads clients' messages.
 */
final class JsonRpcMessageCodec implements MessageCodec<JsonRpcMessage, JsonRpcMessage> {

  /**
   * Reads what another node's server wrote: a message it built or had already admitted, so the limits meant for
   * clients do not apply (a 5 MB tool result must not turn into an "exceeds the limit" error on its way).
   */
  private static final JsonRpcCodec WIRE = JsonRpcCodec.create(new JsonRpcCodecOptions()
      .setMaxMessageBytes(Integer.MAX_VALUE)
      .setMaxNestingDepth(1000));

  private final String name;

  /**
   * @param name unique per registration: Vert.x keys default codecs by class but also by name, so each message
   *     kind registers its own instance
   */
  JsonRpcMessageCodec(String name) {
    this.name = name;
  }

  @Override
  public void encodeToWire(Buffer buffer, JsonRpcMessage message) {
    Buffer json = WIRE.encode(message);
    buffer.appendInt(json.length()).appendBuffer(json);
  }

  @Override
  public JsonRpcMessage decodeFromWire(int pos, Buffer buffer) {
    int length = buffer.getInt(pos);
    Decoded decoded = WIRE.decode(buffer.getBuffer(pos + 4, pos + 4 + length));
    if (decoded instanceof Decoded.Message message) {
      return message.message();
    }
    if (decoded instanceof Decoded.Invalid invalid) {
      return invalid.response();
    }
    throw new IllegalStateException("A batch where one JSON-RPC message was expected");
  }

  @Override
  public JsonRpcMessage transform(JsonRpcMessage message) {
    return message;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public byte systemCodecID() {
    return -1;
  }
}
