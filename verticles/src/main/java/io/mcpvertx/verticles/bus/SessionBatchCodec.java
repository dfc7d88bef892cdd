package io.mcpvertx.verticles.bus;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageCodec;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Carries a {@link SessionBatch}: as is on a local hop; across a cluster as a JSON array whose entries say
 * whether each member was a valid message or an invalid one (and then hold its error response).
 */
final class SessionBatchCodec implements MessageCodec<SessionBatch, SessionBatch> {

  private static final JsonRpcCodec WIRE = JsonRpcCodec.create();

  @Override
  public void encodeToWire(Buffer buffer, SessionBatch batch) {
    JsonArray array = new JsonArray();
    for (Decoded member : batch.members()) {
      if (member instanceof Decoded.Message m) {
        array.add(new JsonObject().put("message", m.message().toJson()));
      } else {
        array.add(new JsonObject().put("invalid", ((Decoded.Invalid) member).response().toJson()));
      }
    }
    Buffer json = array.toBuffer();
    buffer.appendInt(json.length()).appendBuffer(json);
  }

  @Override
  public SessionBatch decodeFromWire(int pos, Buffer buffer) {
    int length = buffer.getInt(pos);
    JsonArray array = new JsonArray(buffer.getBuffer(pos + 4, pos + 4 + length));
    List<Decoded> members = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      JsonObject entry = array.getJsonObject(i);
      Decoded decoded = WIRE.classify(entry.containsKey("message") ? entry.getJsonObject("message")
          : entry.getJsonObject("invalid"));
      if (entry.containsKey("invalid") && decoded instanceof Decoded.Message m) {
        decoded = new Decoded.Invalid((JsonRpcErrorResponse) m.message());
      }
      members.add(decoded);
    }
    return new SessionBatch(members);
  }

  @Override
  public SessionBatch transform(SessionBatch batch) {
    return batch;
  }

  @Override
  public String name() {
    return "mcp-session-batch";
  }

  @Override
  public byte systemCodecID() {
    return -1;
  }

}
