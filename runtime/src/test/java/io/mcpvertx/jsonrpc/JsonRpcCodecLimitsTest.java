package io.mcpvertx.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The codec's hard limits (size, nesting, batch size) and how it splits a batch into members. */
class JsonRpcCodecLimitsTest {

  private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";

  private static JsonRpcErrorResponse rejected(JsonRpcCodec codec, String frame) {
    Decoded decoded = codec.decode(Buffer.buffer(frame));
    return assertInstanceOf(Decoded.Invalid.class, decoded, () -> "accepted: " + decoded).response();
  }

  private static String nested(int depth) {
    return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
        + "{\"a\":".repeat(depth - 1) + "1" + "}".repeat(depth - 1) + "}";
  }

  @Test
  void rejectsOversizeMessageNamingTheLimit() {
    JsonRpcCodec codec = JsonRpcCodec.create(new JsonRpcCodecOptions().setMaxMessageBytes(100));
    String frame = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\""
        + "x".repeat(100) + "\"}}";
    JsonRpcErrorResponse response = rejected(codec, frame);
    assertEquals(JsonRpcErrorCodes.INVALID_REQUEST, response.error().code());
    assertNull(response.id());
    assertTrue(response.error().message().contains("100"), response.error().message());
  }

  @Test
  void rejectsANumberBeyondTheRangeOfADouble() {
    // Read as a double it would be Infinity, which no JSON text can hold (found by the codec's fuzz test).
    JsonRpcCodec codec = JsonRpcCodec.create();
    for (String number : List.of("1e400", "-1e400", "1" + "0".repeat(40) + "e300")) {
      JsonRpcErrorResponse response = rejected(codec, PING.replace("}", ",\"params\":{\"n\":" + number + "}}"));
      assertEquals(JsonRpcErrorCodes.INVALID_REQUEST, response.error().code());
      assertTrue(response.error().message().contains(number), response.error().message());
    }
    assertInstanceOf(Decoded.Message.class, codec.decode(Buffer.buffer(
        PING.replace("}", ",\"params\":{\"n\":1e308,\"m\":-1e-400}}"))));
  }

  @Test
  void rejectsOversizeFrameEvenWhenItIsNotJson() {
    JsonRpcCodec codec = JsonRpcCodec.create(new JsonRpcCodecOptions().setMaxMessageBytes(64));
    assertEquals(JsonRpcErrorCodes.INVALID_REQUEST, rejected(codec, "x".repeat(65)).error().code());
  }

  @Test
  void acceptsMessageOfExactlyTheLimit() {
    JsonRpcCodec codec = JsonRpcCodec.create(new JsonRpcCodecOptions().setMaxMessageBytes(64));
    String frame = PING.substring(0, PING.length() - 1) + ",\"params\":{\"p\":\"";
    frame = frame + "x".repeat(64 - frame.length() - 3) + "\"}}";
    assertEquals(64, frame.length());
    assertInstanceOf(Decoded.Message.class, codec.decode(Buffer.buffer(frame)));
  }

  @Test
  void measuresTheLimitInBytesNotCharacters() {
    JsonRpcCodec codec = JsonRpcCodec.create(new JsonRpcCodecOptions().setMaxMessageBytes(64));
    String frame = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"p\":\"\u00e9\u00e9\u00e9\u00e9\"}}";
    assertTrue(frame.length() <= 64 && Buffer.buffer(frame).length() > 64);
    assertEquals(JsonRpcErrorCodes.INVALID_REQUEST, rejected(codec, frame).error().code());
  }

  @Test
  void rejectsNestingBeyondTheLimitNamingTheLimit() {
    JsonRpcCodec codec = JsonRpcCodec.create(new JsonRpcCodecOptions().setMaxNestingDepth(8));
    JsonRpcErrorResponse response = rejected(codec, nested(9));
    assertEquals(JsonRpcErrorCodes.INVALID_REQUEST, response.error().code(), response.error().message());
    assertNull(response.id());
    assertTrue(response.error().message().contains("8"), response.error().message());
  }

  @Test
  void acceptsNestingAtTheLimit() {
    JsonRpcCodec codec = JsonRpcCodec.create(new JsonRpcCodecOptions().setMaxNestingDepth(8));
    assertInstanceOf(Decoded.Message.class, codec.decode(Buffer.buffer(nested(8))));
  }

  @Test
  void rejectsDeepArraysWithTheDefaultLimit() {
    JsonRpcCodec codec = JsonRpcCodec.create();
    int depth = JsonRpcCodecOptions.DEFAULT_MAX_NESTING_DEPTH + 1;
    String frame = "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"a\":" + "[".repeat(depth) + "]".repeat(depth)
        + "}}";
    JsonRpcErrorResponse response = rejected(codec, frame);
    assertEquals(JsonRpcErrorCodes.INVALID_REQUEST, response.error().code(), response.error().message());
    assertTrue(response.error().message().contains(String.valueOf(JsonRpcCodecOptions.DEFAULT_MAX_NESTING_DEPTH)),
        response.error().message());
  }

  @Test
  void rejectsEmptyBatch() {
    JsonRpcErrorResponse response = rejected(JsonRpcCodec.create(), "[]");
    assertEquals(JsonRpcErrorCodes.INVALID_REQUEST, response.error().code());
    assertNull(response.id());
  }

  @Test
  void rejectsBatchOverMaxBatchSizeWhole() {
    JsonRpcCodec codec = JsonRpcCodec.create(new JsonRpcCodecOptions().setMaxBatchSize(3));
    JsonArray batch = new JsonArray();
    for (int i = 0; i < 4; i++) {
      batch.add(new JsonObject(PING).put("id", i));
    }
    JsonRpcErrorResponse response = rejected(codec, batch.encode());
    assertEquals(JsonRpcErrorCodes.INVALID_REQUEST, response.error().code());
    assertNull(response.id());
    assertTrue(response.error().message().contains("3"), response.error().message());
  }

  @Test
  void acceptsBatchOfExactlyMaxBatchSize() {
    JsonRpcCodec codec = JsonRpcCodec.create(new JsonRpcCodecOptions().setMaxBatchSize(2));
    Decoded.Batch batch = assertInstanceOf(Decoded.Batch.class,
        codec.decode(Buffer.buffer("[" + PING + "," + PING + "]")));
    assertEquals(2, batch.members().size());
  }

  @Test
  void splitsBatchWithMixedValidAndInvalidMembers() {
    String frame = "[" + PING + ","
        + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
        + "1,"
        + "{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":\"tools/list\",\"params\":[]},"
        + "{\"foo\":\"boo\"},"
        + "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"},"
        + "[],"
        + "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}"
        + "]";
    List<Decoded> members = assertInstanceOf(Decoded.Batch.class, JsonRpcCodec.create().decode(Buffer.buffer(frame)))
        .members();
    assertEquals(8, members.size());
    assertInstanceOf(JsonRpcRequest.class, assertInstanceOf(Decoded.Message.class, members.get(0)).message());
    assertInstanceOf(JsonRpcNotification.class, assertInstanceOf(Decoded.Message.class, members.get(1)).message());
    assertInvalid(members.get(2), JsonRpcErrorCodes.INVALID_REQUEST, null);
    assertInvalid(members.get(3), JsonRpcErrorCodes.INVALID_PARAMS, JsonRpcId.of("b"));
    assertInvalid(members.get(4), JsonRpcErrorCodes.INVALID_REQUEST, null);
    assertInvalid(members.get(5), JsonRpcErrorCodes.INVALID_REQUEST, null);
    assertInvalid(members.get(6), JsonRpcErrorCodes.INVALID_REQUEST, null);
    assertInstanceOf(JsonRpcResponse.class, assertInstanceOf(Decoded.Message.class, members.get(7)).message());
  }

  @Test
  void rejectsMalformedBatchWholeAsParseError() {
    JsonRpcErrorResponse response = rejected(JsonRpcCodec.create(), "[" + PING + ",{\"jsonrpc\":\"2.0\",\"method\"]");
    assertEquals(JsonRpcErrorCodes.PARSE_ERROR, response.error().code());
    assertNull(response.id());
  }

  @Test
  void classifiesAnAlreadyParsedObject() {
    Decoded decoded = JsonRpcCodec.create().classify(new JsonObject(PING));
    assertEquals(JsonRpcId.of(1),
        assertInstanceOf(JsonRpcRequest.class, assertInstanceOf(Decoded.Message.class, decoded).message()).id());
    assertInstanceOf(Decoded.Invalid.class, JsonRpcCodec.create().classify("not an object"));
  }

  private static void assertInvalid(Decoded member, int code, JsonRpcId id) {
    JsonRpcErrorResponse response = assertInstanceOf(Decoded.Invalid.class, member).response();
    assertEquals(code, response.error().code(), response.error().message());
    assertEquals(id, response.id());
  }
}
