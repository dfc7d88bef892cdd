package io.mcpvertx.verticles.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonRpcMessageCodecTest {

  private final JsonRpcMessageCodec codec = new JsonRpcMessageCodec("test-codec");

  /** A response whose result is a text of {@code bytes} bytes. */
  static JsonRpcResponse bigResponse(int bytes) {
    return new JsonRpcResponse(JsonRpcId.of(1), new JsonObject().put("content",
        new JsonArray().add(new JsonObject().put("type", "text").put("text", "b".repeat(bytes)))));
  }

  /** A response whose result nests objects {@code depth} deep. */
  static JsonRpcResponse deepResponse(int depth) {
    JsonObject nested = new JsonObject().put("leaf", true);
    for (int i = 0; i < depth; i++) {
      nested = new JsonObject().put("n", nested);
    }
    return new JsonRpcResponse(JsonRpcId.of(2), new JsonObject().put("structuredContent", nested));
  }

  static List<JsonRpcMessage> everyKind() {
    return List.of(
        new JsonRpcRequest(JsonRpcId.of(7), "tools/call", new JsonObject().put("name", "echo")
            .put("arguments", new JsonObject().put("text", "h\u00e9llo").put("n", 3).put("x", 1.5))),
        new JsonRpcRequest(JsonRpcId.of("abc-1"), "ping", null),
        new JsonRpcNotification("notifications/initialized", null),
        new JsonRpcNotification("notifications/progress", new JsonObject().put("progressToken", "t")
            .put("progress", 2).put("total", 10)),
        new JsonRpcResponse(JsonRpcId.of(Long.MAX_VALUE), new JsonObject().put("tools", new JsonArray())),
        new JsonRpcResponse(JsonRpcId.of("s"), new JsonObject()),
        new JsonRpcErrorResponse(JsonRpcId.of(3), new JsonRpcError(JsonRpcErrorCodes.INVALID_PARAMS, "bad",
            new JsonObject().put("errors", new JsonArray().add("x is required")))),
        new JsonRpcErrorResponse(JsonRpcId.of("q"), new JsonRpcError(-32042, "needs a URL", "text data")),
        new JsonRpcErrorResponse(null, new JsonRpcError(JsonRpcErrorCodes.PARSE_ERROR, "Parse error")));
  }

  @Test
  void everyMessageKindSurvivesTheWire() {
    for (JsonRpcMessage message : everyKind()) {
      Buffer wire = Buffer.buffer();
      codec.encodeToWire(wire, message);
      assertEquals(message, codec.decodeFromWire(0, wire), message.toJson().encode());
    }
  }

  @Test
  void anErrorResponseWithNullIdKeepsItsNullId() {
    JsonRpcErrorResponse error = new JsonRpcErrorResponse(null,
        new JsonRpcError(JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request"));
    Buffer wire = Buffer.buffer();
    codec.encodeToWire(wire, error);
    JsonRpcErrorResponse decoded = (JsonRpcErrorResponse) codec.decodeFromWire(0, wire);
    assertEquals(null, decoded.id());
    assertEquals(error.error(), decoded.error());
    assertEquals(error.toJson(), decoded.toJson());
  }

  @Test
  void decodesAtAPositionAmongOtherBytes() {
    Buffer wire = Buffer.buffer().appendString("cluster-frame-header").appendInt(42);
    List<JsonRpcMessage> messages = everyKind();
    int[] positions = new int[messages.size()];
    for (int i = 0; i < messages.size(); i++) {
      positions[i] = wire.length();
      codec.encodeToWire(wire, messages.get(i));
    }
    wire.appendString("trailing bytes of the next frame");
    for (int i = 0; i < messages.size(); i++) {
      assertEquals(messages.get(i), codec.decodeFromWire(positions[i], wire));
    }
  }

  @Test
  void aResultLargerThanTheClientMessageLimitSurvivesTheWire() {
    JsonRpcResponse response = bigResponse(5 * 1024 * 1024);
    Buffer wire = Buffer.buffer();
    codec.encodeToWire(wire, response);
    // assertTrue, not assertEquals: a failure message of 5 MB helps nobody.
    assertTrue(response.equals(codec.decodeFromWire(0, wire)), "the response changed on the wire");
  }

  @Test
  void aDeeplyNestedResultSurvivesTheWire() {
    JsonRpcResponse response = deepResponse(100);
    Buffer wire = Buffer.buffer();
    codec.encodeToWire(wire, response);
    assertEquals(response, codec.decodeFromWire(0, wire));
  }

  @Test
  void transformHandsOverTheSameInstance() {
    for (JsonRpcMessage message : everyKind()) {
      assertSame(message, codec.transform(message));
    }
  }

  @Test
  void isAUserCodecWithItsOwnName() {
    assertEquals("test-codec", codec.name());
    assertEquals(-1, codec.systemCodecID());
    assertNotEquals(codec.name(), new JsonRpcMessageCodec("other").name());
  }
}
