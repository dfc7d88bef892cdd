package io.mcpvertx.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

/**
 * The codec on any bytes: it never throws, it answers exactly the ill-formed UTF-8 that a strict decoder refuses
 * with -32700, every error it makes is one of the three a frame can earn, and what it accepts encodes to a frame
 * that decodes to itself (one encoding is a fixed point), with only finite numbers inside.
 */
class JsonRpcCodecFuzzTest {

  private static final JsonRpcCodec CODEC = JsonRpcCodec.create();
  private static final Set<Integer> FRAME_ERRORS = Set.of(JsonRpcErrorCodes.PARSE_ERROR,
      JsonRpcErrorCodes.INVALID_REQUEST, JsonRpcErrorCodes.INVALID_PARAMS);

  @FuzzTest
  void decodesAnyFrameToMessagesOrPreciseErrors(byte[] frame) {
    Decoded decoded = CODEC.decode(Buffer.buffer(frame));
    if (!strictUtf8(frame)) {
      Decoded.Invalid invalid = assertInstanceOf(Decoded.Invalid.class, decoded, "ill-formed UTF-8 was decoded");
      assertEquals(JsonRpcErrorCodes.PARSE_ERROR, invalid.response().error().code());
      return;
    }
    check(decoded, true);
  }

  private static void check(Decoded decoded, boolean top) {
    if (decoded instanceof Decoded.Batch batch) {
      assertTrue(top, "a batch inside a batch");
      assertFalse(batch.members().isEmpty(), "an empty batch was accepted");
      batch.members().forEach(member -> check(member, false));
    } else if (decoded instanceof Decoded.Invalid invalid) {
      JsonRpcError error = invalid.response().error();
      assertTrue(FRAME_ERRORS.contains(error.code()), "unexpected code " + error.code());
      // The answer itself must be a well-formed message.
      Decoded answer = CODEC.decode(CODEC.encode(invalid.response()));
      assertEquals(invalid.response(), assertInstanceOf(Decoded.Message.class, answer).message());
    } else {
      JsonRpcMessage message = ((Decoded.Message) decoded).message();
      assertFinite(message.toJson());
      Buffer once = CODEC.encode(message);
      Decoded again = CODEC.decode(once);
      JsonRpcMessage reread = assertInstanceOf(Decoded.Message.class, again, () -> "re-encoded " + once).message();
      assertEquals(once, CODEC.encode(reread), "encoding is not a fixed point");
    }
  }

  /** No NaN or infinity can come out of a JSON text; a number too large for a double must not become one. */
  private static void assertFinite(Object value) {
    if (value instanceof Double d) {
      assertTrue(Double.isFinite(d), "a non-finite number was decoded");
    } else if (value instanceof Float f) {
      assertTrue(Float.isFinite(f), "a non-finite number was decoded");
    } else if (value instanceof JsonObject object) {
      object.getMap().values().forEach(JsonRpcCodecFuzzTest::assertFinite);
    } else if (value instanceof Map<?, ?> map) {
      map.values().forEach(JsonRpcCodecFuzzTest::assertFinite);
    } else if (value instanceof JsonArray array) {
      array.getList().forEach(JsonRpcCodecFuzzTest::assertFinite);
    } else if (value instanceof Iterable<?> list) {
      list.forEach(JsonRpcCodecFuzzTest::assertFinite);
    }
  }

  /** RFC 3629 as the JDK reads it: no overlong forms, no surrogates, nothing past U+10FFFF. */
  private static boolean strictUtf8(byte[] bytes) {
    try {
      StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }
}
