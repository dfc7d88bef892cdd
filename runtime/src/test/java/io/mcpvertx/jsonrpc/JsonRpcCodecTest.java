package io.mcpvertx.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Well-formed messages of every kind: classification, encoding and the round trip between them. */
class JsonRpcCodecTest {

  private final JsonRpcCodec codec = JsonRpcCodec.create();

  private JsonRpcMessage message(String frame) {
    Decoded decoded = codec.decode(Buffer.buffer(frame));
    return assertInstanceOf(Decoded.Message.class, decoded, () -> "not a message: " + decoded).message();
  }

  @Test
  void decodesRequestWithStringId() {
    JsonRpcRequest request = assertInstanceOf(JsonRpcRequest.class,
        message("{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"tools/list\",\"params\":{\"cursor\":\"c1\"}}"));
    assertEquals(JsonRpcId.of("abc"), request.id());
    assertEquals("tools/list", request.method());
    assertEquals("c1", request.params().getString("cursor"));
  }

  @Test
  void decodesRequestWithIntegerId() {
    JsonRpcRequest request = assertInstanceOf(JsonRpcRequest.class,
        message("{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"ping\"}"));
    assertEquals(JsonRpcId.of(42), request.id());
    assertNull(request.params());
    assertTrue(request.paramsOrEmpty().isEmpty());
  }

  @Test
  void keepsIntegerAndStringIdsWithTheSameDigitsApart() {
    JsonRpcId number = assertInstanceOf(JsonRpcRequest.class,
        message("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}")).id();
    JsonRpcId text = assertInstanceOf(JsonRpcRequest.class,
        message("{\"jsonrpc\":\"2.0\",\"id\":\"7\",\"method\":\"ping\"}")).id();
    assertFalse(number.equals(text));
    assertEquals(number, JsonRpcId.decode(number.encode()));
    assertEquals(text, JsonRpcId.decode(text.encode()));
  }

  @Test
  void decodesLargeAndNegativeIntegerIds() {
    assertEquals(JsonRpcId.of(Long.MAX_VALUE), assertInstanceOf(JsonRpcRequest.class,
        message("{\"jsonrpc\":\"2.0\",\"id\":" + Long.MAX_VALUE + ",\"method\":\"ping\"}")).id());
    assertEquals(JsonRpcId.of(-1), assertInstanceOf(JsonRpcRequest.class,
        message("{\"jsonrpc\":\"2.0\",\"id\":-1,\"method\":\"ping\"}")).id());
  }

  @Test
  void acceptsIntegersBeyondLongRangeInsideParams() {
    JsonRpcRequest request = assertInstanceOf(JsonRpcRequest.class, message("{\"jsonrpc\":\"2.0\",\"id\":1,"
        + "\"method\":\"tools/call\",\"params\":{\"arguments\":{\"n\":123456789012345678901234567890}}}"));
    assertEquals(new java.math.BigInteger("123456789012345678901234567890"),
        request.params().getJsonObject("arguments").getValue("n"));
  }

  @Test
  void decodesNotification() {
    JsonRpcNotification notification = assertInstanceOf(JsonRpcNotification.class,
        message("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
    assertEquals("notifications/initialized", notification.method());
    assertNull(notification.params());
  }

  @Test
  void decodesNotificationWithParams() {
    JsonRpcNotification notification = assertInstanceOf(JsonRpcNotification.class,
        message("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":3}}"));
    assertEquals(3L, notification.params().getLong("requestId"));
  }

  @Test
  void decodesResponse() {
    JsonRpcResponse response = assertInstanceOf(JsonRpcResponse.class,
        message("{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"roots\":[{\"uri\":\"file:///a\"}]}}"));
    assertEquals(JsonRpcId.of(5), response.id());
    assertEquals("file:///a", response.result().getJsonArray("roots").getJsonObject(0).getString("uri"));
  }

  @Test
  void decodesResponseWithEmptyResult() {
    JsonRpcResponse response = assertInstanceOf(JsonRpcResponse.class,
        message("{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"result\":{}}"));
    assertTrue(response.result().isEmpty());
  }

  @Test
  void decodesErrorResponse() {
    JsonRpcErrorResponse response = assertInstanceOf(JsonRpcErrorResponse.class, message(
        "{\"jsonrpc\":\"2.0\",\"id\":9,\"error\":{\"code\":-32601,\"message\":\"nope\",\"data\":{\"why\":\"x\"}}}"));
    assertEquals(JsonRpcId.of(9), response.id());
    assertEquals(-32601, response.error().code());
    assertEquals("nope", response.error().message());
    assertEquals(new JsonObject().put("why", "x"), response.error().data());
  }

  @Test
  void decodesErrorResponseWithNullId() {
    JsonRpcErrorResponse response = assertInstanceOf(JsonRpcErrorResponse.class,
        message("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}"));
    assertNull(response.id());
    assertEquals(-32700, response.error().code());
  }

  @Test
  void decodesErrorResponseWithoutId() {
    JsonRpcErrorResponse response = assertInstanceOf(JsonRpcErrorResponse.class,
        message("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"}}"));
    assertNull(response.id());
  }

  @Test
  void acceptsWhitespaceAroundAMessage() {
    assertInstanceOf(JsonRpcRequest.class, message("  \n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n "));
  }

  @Test
  void encodesRequestInItsWireShape() {
    JsonObject json = new JsonObject(codec.encode(new JsonRpcRequest(JsonRpcId.of(3), "ping", null)));
    assertEquals(new JsonObject().put("jsonrpc", "2.0").put("id", 3).put("method", "ping"), json);
  }

  @Test
  void encodesNotificationWithoutId() {
    JsonObject json = new JsonObject(codec.encode(new JsonRpcNotification("notifications/progress",
        new JsonObject().put("progress", 1))));
    assertFalse(json.containsKey("id"));
    assertEquals("notifications/progress", json.getString("method"));
    assertEquals(1, json.getJsonObject("params").getInteger("progress"));
  }

  @Test
  void encodesErrorResponseWithUnknownIdAsNull() {
    JsonObject json = new JsonObject(codec.encode(new JsonRpcErrorResponse(null,
        new JsonRpcError(JsonRpcErrorCodes.PARSE_ERROR, "Parse error"))));
    assertTrue(json.containsKey("id"), "JSON-RPC 2.0 writes an unknown id as null, it does not omit it");
    assertNull(json.getValue("id"));
    assertEquals(new JsonObject().put("code", -32700).put("message", "Parse error"), json.getJsonObject("error"));
  }

  @Test
  void encodesErrorDataOnlyWhenPresent() {
    JsonObject without = new JsonRpcError(-32602, "bad").toJson();
    assertFalse(without.containsKey("data"));
    JsonObject with = new JsonRpcError(-32602, "bad", new JsonArray().add("x")).toJson();
    assertEquals(new JsonArray().add("x"), with.getJsonArray("data"));
  }

  @Test
  void roundTripsRequestWithStringId() {
    assertRoundTrip(new JsonRpcRequest(JsonRpcId.of("r-1"), "tools/call",
        new JsonObject().put("name", "echo").put("arguments", new JsonObject().put("n", 1).put("list",
            new JsonArray().add(true).add("s")))));
  }

  @Test
  void roundTripsRequestWithIntegerId() {
    assertRoundTrip(new JsonRpcRequest(JsonRpcId.of(12), "ping", null));
  }

  @Test
  void roundTripsNotification() {
    assertRoundTrip(new JsonRpcNotification("notifications/message",
        new JsonObject().put("level", "info").put("data", new JsonObject().put("k", "v"))));
    assertRoundTrip(new JsonRpcNotification("notifications/initialized", null));
  }

  @Test
  void roundTripsResponse() {
    assertRoundTrip(new JsonRpcResponse(JsonRpcId.of("x"), new JsonObject().put("tools", new JsonArray())));
  }

  @Test
  void roundTripsErrorResponse() {
    assertRoundTrip(new JsonRpcErrorResponse(JsonRpcId.of(4),
        new JsonRpcError(-32002, "Resource not found", new JsonObject().put("uri", "file:///x"))));
    assertRoundTrip(new JsonRpcErrorResponse(JsonRpcId.of(4), new JsonRpcError(-32603, "boom", "text data")));
  }

  @Test
  void roundTripsErrorResponseWithNullId() {
    assertRoundTrip(new JsonRpcErrorResponse(null, new JsonRpcError(-32700, "Parse error")));
  }

  @Test
  void encodesBatchAsOneArrayInOrder() {
    List<JsonRpcMessage> responses = List.of(
        new JsonRpcResponse(JsonRpcId.of(1), new JsonObject()),
        new JsonRpcErrorResponse(JsonRpcId.of("two"), new JsonRpcError(-32601, "Method not found")),
        new JsonRpcErrorResponse(null, new JsonRpcError(-32600, "Invalid Request")));
    JsonArray array = new JsonArray(codec.encodeBatch(responses));
    assertEquals(3, array.size());
    for (int i = 0; i < responses.size(); i++) {
      assertEquals(responses.get(i).toJson(), array.getJsonObject(i));
    }
  }

  @Test
  void decodesWhatEncodeBatchWrote() {
    List<JsonRpcMessage> messages = List.of(
        new JsonRpcRequest(JsonRpcId.of(1), "ping", null),
        new JsonRpcNotification("notifications/initialized", null));
    Decoded.Batch batch = assertInstanceOf(Decoded.Batch.class, codec.decode(codec.encodeBatch(messages)));
    assertEquals(messages, batch.members().stream()
        .map(m -> assertInstanceOf(Decoded.Message.class, m).message()).toList());
  }

  @Test
  void encodesEmptyBatchAsEmptyArray() {
    assertEquals("[]", codec.encodeBatch(List.of()).toString());
  }

  private void assertRoundTrip(JsonRpcMessage original) {
    Buffer frame = codec.encode(original);
    assertFalse(frame.toString().endsWith("\n"), "frames carry no trailing newline");
    JsonRpcMessage decoded = message(frame.toString());
    assertEquals(original.getClass(), decoded.getClass());
    assertEquals(original.toJson(), decoded.toJson());
    assertEquals(original, decoded);
  }

  @Test
  void encodingWritesEveryKindOfValueAsVertxWould() {
    Map<String, Object> shared = new LinkedHashMap<>();
    shared.put("name", "srv");
    shared.put("version", "1.0.0");
    JsonObject result = new JsonObject()
        .put("text", "a \"quoted\" line\n\u00e9\u2028")
        .put("int", 42).put("long", 1L << 40).put("negative", -7)
        .put("double", 1.5).put("float", 2.25f).put("big", new BigDecimal("12345678901234567890.5"))
        .put("bigInt", new BigInteger("123456789012345678901234567890"))
        .put("short", (short) 3).put("yes", true).put("no", false).putNull("nothing")
        .put("instant", Instant.parse("2026-11-27T10:15:30Z"))
        .put("bytes", new byte[] {1, 2, 3}).put("buffer", Buffer.buffer("raw"))
        .put("readOnly", new JsonObject(Collections.unmodifiableMap(shared)))
        .put("rawMap", shared)
        .put("rawList", new LinkedList<>(List.of(1, "two", List.of(3))))
        .put("array", new JsonArray().add(new JsonObject()).add(new JsonArray()).addNull().add(0.1))
        .put("empty", new JsonObject());
    JsonRpcResponse response = new JsonRpcResponse(JsonRpcId.of(9), result);

    assertEquals(response.toJson().encode(), codec.encode(response).toString());
  }
}
