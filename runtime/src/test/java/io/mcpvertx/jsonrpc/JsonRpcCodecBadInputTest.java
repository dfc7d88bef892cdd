package io.mcpvertx.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Frames that are not valid JSON-RPC messages: each becomes the error response JSON-RPC 2.0 and MCP prescribe,
 * never an exception.
 */
class JsonRpcCodecBadInputTest {

  private final JsonRpcCodec codec = JsonRpcCodec.create();

  private JsonRpcErrorResponse rejected(String frame) {
    return rejected(Buffer.buffer(frame));
  }

  private JsonRpcErrorResponse rejected(Buffer frame) {
    Decoded decoded = codec.decode(frame);
    return assertInstanceOf(Decoded.Invalid.class, decoded, () -> "accepted: " + decoded).response();
  }

  private static void assertError(JsonRpcErrorResponse response, int code, JsonRpcId id) {
    assertEquals(code, response.error().code(), response.error().message());
    assertEquals(id, response.id());
  }

  @Test
  void rejectsMalformedJsonWithParseErrorAndNullId() {
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\""), JsonRpcErrorCodes.PARSE_ERROR, null);
    assertError(rejected("{\"jsonrpc\": \"2.0\", \"method\": \"foobar, \"params\": \"bar\", \"baz]"),
        JsonRpcErrorCodes.PARSE_ERROR, null);
    assertError(rejected("{'jsonrpc':'2.0'}"), JsonRpcErrorCodes.PARSE_ERROR, null);
  }

  @Test
  void refusesAMemberGivenTwiceAtAnyDepth() {
    // Two parsers in a chain could otherwise read two different messages from one frame.
    for (String frame : List.of(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"method\":\"tools/call\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}",
        "{\"jsonrpc\":\"2.0\",\"x\":1,\"id\":1,\"method\":\"ping\",\"x\":2}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"a\",\"name\":\"b\"}}",
        "[{\"jsonrpc\":\"2.0\",\"method\":\"a\"},{\"jsonrpc\":\"2.0\",\"jsonrpc\":\"2.0\",\"method\":\"b\"}]")) {
      JsonRpcErrorResponse response = rejected(frame);
      assertError(response, JsonRpcErrorCodes.PARSE_ERROR, null);
      assertTrue(response.error().message().contains("Duplicate field"), response.error().message());
    }
  }

  @Test
  void rejectsEmptyFrameAsParseError() {
    assertError(rejected(""), JsonRpcErrorCodes.PARSE_ERROR, null);
    assertError(rejected("   \n"), JsonRpcErrorCodes.PARSE_ERROR, null);
  }

  @Test
  void rejectsInvalidUtf8AsParseError() {
    Buffer frame = Buffer.buffer("{\"jsonrpc\":\"2.0\",\"method\":\"").appendByte((byte) 0xC3)
        .appendByte((byte) 0x28).appendString("\"}");
    assertError(rejected(frame), JsonRpcErrorCodes.PARSE_ERROR, null);
  }

  @Test
  void rejectsOverlongUtf8InsideAStringAsParseError() {
    // "/" as C0 AF and as E0 80 AF: decoded, they would smuggle a slash past any byte-level filter (RFC 3629).
    for (byte[] overlong : new byte[][] {{(byte) 0xC0, (byte) 0xAF}, {(byte) 0xE0, (byte) 0x80, (byte) 0xAF},
        {(byte) 0xF0, (byte) 0x80, (byte) 0x80, (byte) 0xAF}, {(byte) 0xC1, (byte) 0xBF}}) {
      Buffer frame = Buffer.buffer("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
          + "{\"name\":\"greet\",\"arguments\":{\"name\":\"").appendBytes(overlong).appendString("\"}}}");
      assertError(rejected(frame), JsonRpcErrorCodes.PARSE_ERROR, null);
    }
  }

  @Test
  void rejectsEncodedSurrogatesAndCodePointsBeyondUnicodeAsParseError() {
    for (byte[] bad : new byte[][] {{(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80,
        (byte) 0x80}, {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0x80}, {(byte) 0xE2, (byte) 0x82}}) {
      Buffer frame = Buffer.buffer("{\"jsonrpc\":\"2.0\",\"method\":\"x").appendBytes(bad).appendString("\"}");
      assertError(rejected(frame), JsonRpcErrorCodes.PARSE_ERROR, null);
    }
  }

  @Test
  void findsIllFormedUtf8WhereverItSitsAmongAsciiWords() {
    // ASCII is skipped eight bytes at a time: a bad byte at each offset of a word, and in the tail after the last
    // whole word, must still be found, at its own index.
    String prefix = "{\"jsonrpc\":\"2.0\",\"method\":\"";
    for (int at = 0; at < 19; at++) {
      Buffer frame = Buffer.buffer(prefix + "a".repeat(at)).appendByte((byte) 0xC0).appendByte((byte) 0xAF)
          .appendString("\"}");
      JsonRpcErrorResponse response = rejected(frame);
      assertError(response, JsonRpcErrorCodes.PARSE_ERROR, null);
      assertTrue(response.error().message().contains("at byte " + (prefix.length() + at)),
          response.error().message());
    }
    byte[] ascii = "abcdefghijklmnopq".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    for (int at = 0; at < ascii.length; at++) {
      byte[] bytes = ascii.clone();
      bytes[at] = (byte) 0xFF;
      assertEquals(at, Utf8.firstIllFormed(bytes));
    }
    assertEquals(-1, Utf8.firstIllFormed(ascii));
  }

  @Test
  void acceptsWellFormedMultiByteUtf8() {
    String text = "caf\u00e9 \u20ac \ud83d\ude00 \uffff \ud7ff \ue000";
    Decoded decoded = codec.decode(Buffer.buffer("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":"
        + "{\"t\":\"" + text + "\"}}"));
    JsonRpcRequest request = (JsonRpcRequest) assertInstanceOf(Decoded.Message.class, decoded).message();
    assertEquals(text, request.params().getString("t"));
  }

  @Test
  void rejectsAMemberGivenTwiceAsParseError() {
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"method\":\"tools/call\"}"),
        JsonRpcErrorCodes.PARSE_ERROR, null);
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{\"a\":1,\"a\":2}}"),
        JsonRpcErrorCodes.PARSE_ERROR, null);
  }

  @Test
  void rejectsTrailingGarbageAsParseError() {
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} x"), JsonRpcErrorCodes.PARSE_ERROR, null);
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}}"), JsonRpcErrorCodes.PARSE_ERROR, null);
  }

  @Test
  void rejectsTwoConcatenatedMessages() {
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}{\"jsonrpc\":\"2.0\",\"id\":2,"
        + "\"method\":\"ping\"}"), JsonRpcErrorCodes.PARSE_ERROR, null);
  }

  @Test
  void rejectsJsonThatIsNotAnObjectOrArray() {
    assertError(rejected("42"), JsonRpcErrorCodes.INVALID_REQUEST, null);
    assertError(rejected("\"ping\""), JsonRpcErrorCodes.INVALID_REQUEST, null);
    assertError(rejected("null"), JsonRpcErrorCodes.INVALID_REQUEST, null);
    assertError(rejected("true"), JsonRpcErrorCodes.INVALID_REQUEST, null);
  }

  @Test
  void rejectsWrongJsonrpcVersionKeepingTheId() {
    JsonRpcErrorResponse response = rejected("{\"jsonrpc\":\"1.0\",\"id\":3,\"method\":\"ping\"}");
    assertError(response, JsonRpcErrorCodes.INVALID_REQUEST, JsonRpcId.of(3));
    assertTrue(response.error().message().contains("jsonrpc"), response.error().message());
  }

  @Test
  void rejectsMissingJsonrpc() {
    assertError(rejected("{\"id\":\"a\",\"method\":\"ping\"}"), JsonRpcErrorCodes.INVALID_REQUEST, JsonRpcId.of("a"));
    assertError(rejected("{\"method\":\"notifications/initialized\"}"), JsonRpcErrorCodes.INVALID_REQUEST, null);
  }

  @Test
  void rejectsNumericJsonrpc() {
    assertError(rejected("{\"jsonrpc\":2.0,\"id\":1,\"method\":\"ping\"}"), JsonRpcErrorCodes.INVALID_REQUEST,
        JsonRpcId.of(1));
  }

  @Test
  void rejectsRequestWithNullId() {
    JsonRpcErrorResponse response = rejected("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}");
    assertError(response, JsonRpcErrorCodes.INVALID_REQUEST, null);
    assertTrue(response.error().message().contains("null"), response.error().message());
  }

  @Test
  void rejectsRequestWithNonIntegerNumberId() {
    JsonRpcErrorResponse response = rejected("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}");
    assertError(response, JsonRpcErrorCodes.INVALID_REQUEST, null);
    assertTrue(response.error().message().contains("1.5"), response.error().message());
    // 1.0 is not an integer either: an id that a client's JSON library may write back as 1 must not match id 1.
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":1.0,\"method\":\"ping\"}"),
        JsonRpcErrorCodes.INVALID_REQUEST, null);
  }

  @Test
  void rejectsRequestWithIntegerIdBeyondLongRange() {
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":123456789012345678901234567890,\"method\":\"ping\"}"),
        JsonRpcErrorCodes.INVALID_REQUEST, null);
  }

  @Test
  void rejectsRequestWithBooleanId() {
    JsonRpcErrorResponse response = rejected("{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}");
    assertError(response, JsonRpcErrorCodes.INVALID_REQUEST, null);
    assertTrue(response.error().message().contains("boolean"), response.error().message());
  }

  @Test
  void rejectsRequestWithObjectOrArrayId() {
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}"),
        JsonRpcErrorCodes.INVALID_REQUEST, null);
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"ping\"}"),
        JsonRpcErrorCodes.INVALID_REQUEST, null);
  }

  @Test
  void rejectsMethodThatIsNotAString() {
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":1}"), JsonRpcErrorCodes.INVALID_REQUEST,
        JsonRpcId.of(1));
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"method\":{\"name\":\"ping\"}}"), JsonRpcErrorCodes.INVALID_REQUEST,
        null);
  }

  @Test
  void rejectsEmptyMethod() {
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\"}"), JsonRpcErrorCodes.INVALID_REQUEST,
        JsonRpcId.of(1));
  }

  @Test
  void rejectsRequestParamsThatAreNotAnObjectWithInvalidParamsAndTheId() {
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\",\"params\":[1,2]}"),
        JsonRpcErrorCodes.INVALID_PARAMS, JsonRpcId.of(8));
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"method\":\"tools/list\",\"params\":\"x\"}"),
        JsonRpcErrorCodes.INVALID_PARAMS, JsonRpcId.of("s"));
  }

  @Test
  void rejectsNotificationParamsThatAreNotAnObjectAsInvalidRequest() {
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\",\"params\":7}"),
        JsonRpcErrorCodes.INVALID_REQUEST, null);
  }

  @Test
  void treatsNullParamsAsAbsent() {
    Decoded decoded = codec.decode(Buffer.buffer("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":null}"));
    JsonRpcRequest request = assertInstanceOf(JsonRpcRequest.class,
        assertInstanceOf(Decoded.Message.class, decoded).message());
    assertNull(request.params());
  }

  @Test
  void rejectsObjectWithNeitherMethodNorResultNorError() {
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":1}"), JsonRpcErrorCodes.INVALID_REQUEST, JsonRpcId.of(1));
    assertError(rejected("{}"), JsonRpcErrorCodes.INVALID_REQUEST, null);
  }

  @Test
  void rejectsResultThatIsNotAnObject() {
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[]}"), JsonRpcErrorCodes.INVALID_REQUEST,
        JsonRpcId.of(1));
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":null}"), JsonRpcErrorCodes.INVALID_REQUEST,
        JsonRpcId.of(1));
  }

  @Test
  void rejectsResponseWithoutUsableId() {
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"result\":{}}"), JsonRpcErrorCodes.INVALID_REQUEST, null);
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":{}}"), JsonRpcErrorCodes.INVALID_REQUEST, null);
  }

  @Test
  void rejectsResponseWithBothResultAndError() {
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{},\"error\":{\"code\":1,\"message\":\"m\"}}"),
        JsonRpcErrorCodes.INVALID_REQUEST, JsonRpcId.of(2));
  }

  @Test
  void rejectsMalformedErrorMember() {
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":\"bad\"}"), JsonRpcErrorCodes.INVALID_REQUEST,
        JsonRpcId.of(2));
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":\"x\",\"message\":\"m\"}}"),
        JsonRpcErrorCodes.INVALID_REQUEST, JsonRpcId.of(2));
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":1}}"), JsonRpcErrorCodes.INVALID_REQUEST,
        JsonRpcId.of(2));
  }

  @Test
  void rejectsErrorCodeThatIsNotAnInteger() {
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32600.5,\"message\":\"m\"}}"),
        JsonRpcErrorCodes.INVALID_REQUEST, JsonRpcId.of(2));
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":4294967296,\"message\":\"m\"}}"),
        JsonRpcErrorCodes.INVALID_REQUEST, JsonRpcId.of(2));
  }

  @Test
  void rejectsErrorResponseWithBadId() {
    assertError(rejected("{\"jsonrpc\":\"2.0\",\"id\":false,\"error\":{\"code\":1,\"message\":\"m\"}}"),
        JsonRpcErrorCodes.INVALID_REQUEST, null);
  }

  @Test
  void neverThrowsOnArbitraryBytes() {
    byte[] bytes = new byte[256];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (i * 31 + 7);
    }
    assertInstanceOf(Decoded.Invalid.class, codec.decode(Buffer.buffer(bytes)));
  }
}
