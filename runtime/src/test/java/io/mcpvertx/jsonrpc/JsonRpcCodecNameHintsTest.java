package io.mcpvertx.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The codec reads each member name with the name the previous message had in the same place as its guess: a guess
 * that is wrong, a prefix of the real name, or longer than it must never change what is read.
 */
class JsonRpcCodecNameHintsTest {

  private final JsonRpcCodec codec = JsonRpcCodec.create();

  private JsonObject params(String paramsJson) {
    Decoded decoded = codec.decode(Buffer.buffer(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":" + paramsJson + "}"));
    Decoded.Message message = assertInstanceOf(Decoded.Message.class, decoded, decoded::toString);
    return assertInstanceOf(JsonRpcRequest.class, message.message()).params();
  }

  @Test
  void messagesOfOtherShapesReadTheirOwnNames() {
    String longName = "io.modelcontextprotocol/" + "x".repeat(80);
    List<String> shapes = List.of(
        "{\"a\":1,\"b\":{\"c\":2,\"d\":[{\"e\":3}]}}",
        "{\"b\":1,\"a\":{\"d\":2,\"c\":[{\"e\":3}]}}",
        "{\"ab\":1,\"abc\":2,\"a\":3}",
        "{\"abc\":1,\"ab\":2,\"a\\\"b\":3}",
        "{\"a\\u0063\":1,\"ab\":{}}",
        "{\"" + longName + "\":1,\"" + longName + "y\":2}",
        "{}",
        "{\"\\udc00\":1,\"\\ud83d\\ude00\":2}",
        "{\"caf\u00e9\":1,\"cafe\":2}");
    // Twice round, each shape after every other: every guess the previous message leaves is tried.
    for (int round = 0; round < 2; round++) {
      for (String first : shapes) {
        for (String second : shapes) {
          assertEquals(new JsonObject(first), params(first), first);
          assertEquals(new JsonObject(second), params(second), second + " after " + first);
        }
      }
    }
  }

  @Test
  void aMemberGivenTwiceIsRefusedWhenItsNameWasGuessed() {
    params("{\"name\":\"a\",\"arguments\":{}}");
    Decoded decoded = codec.decode(Buffer.buffer(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"a\",\"name\":\"b\"}}"));
    Decoded.Invalid invalid = assertInstanceOf(Decoded.Invalid.class, decoded, decoded::toString);
    assertEquals(JsonRpcErrorCodes.PARSE_ERROR, invalid.response().error().code());
  }
}
