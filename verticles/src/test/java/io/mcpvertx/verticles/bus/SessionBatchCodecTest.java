package io.mcpvertx.verticles.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionBatchCodecTest {

  private final SessionBatchCodec codec = new SessionBatchCodec();

  private static SessionBatch mixedBatch() {
    List<Decoded> members = new ArrayList<>();
    for (JsonRpcMessage message : JsonRpcMessageCodecTest.everyKind()) {
      members.add(new Decoded.Message(message));
    }
    members.add(1, new Decoded.Invalid(new JsonRpcErrorResponse(null,
        new JsonRpcError(JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: a message must be a JSON object"))));
    members.add(new Decoded.Invalid(new JsonRpcErrorResponse(JsonRpcId.of(9),
        new JsonRpcError(JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: \"jsonrpc\" must be \"2.0\""))));
    members.add(new Decoded.Invalid(new JsonRpcErrorResponse(JsonRpcId.of("str"),
        new JsonRpcError(JsonRpcErrorCodes.INVALID_PARAMS, "Invalid params"))));
    return new SessionBatch(members);
  }

  @Test
  void aBatchOfEveryKindWithInvalidMembersSurvivesTheWire() {
    SessionBatch batch = mixedBatch();
    Buffer wire = Buffer.buffer();
    codec.encodeToWire(wire, batch);
    SessionBatch decoded = codec.decodeFromWire(0, wire);
    assertEquals(batch, decoded);
  }

  @Test
  void invalidMembersStayInvalidAndValidErrorResponsesStayMessages() {
    Buffer wire = Buffer.buffer();
    codec.encodeToWire(wire, mixedBatch());
    List<Decoded> members = codec.decodeFromWire(0, wire).members();
    assertInstanceOf(Decoded.Invalid.class, members.get(1));
    assertEquals(null, ((Decoded.Invalid) members.get(1)).response().id());
    Decoded last = members.get(members.size() - 1);
    assertInstanceOf(Decoded.Invalid.class, last);
    // The error response with null id that was a valid member (a client answering a parse error) stays a message.
    Decoded validNullIdError = members.get(members.size() - 4);
    assertInstanceOf(Decoded.Message.class, validNullIdError);
    assertInstanceOf(JsonRpcErrorResponse.class, ((Decoded.Message) validNullIdError).message());
  }

  @Test
  void decodesAtAPositionAmongOtherBytes() {
    SessionBatch first = mixedBatch();
    SessionBatch second = SessionBatch.ofResponses(List.of(JsonRpcMessageCodecTest.everyKind().get(4)));
    Buffer wire = Buffer.buffer().appendString("header").appendLong(99);
    int firstAt = wire.length();
    codec.encodeToWire(wire, first);
    int secondAt = wire.length();
    codec.encodeToWire(wire, second);
    wire.appendString("more");
    assertEquals(first, codec.decodeFromWire(firstAt, wire));
    assertEquals(second, codec.decodeFromWire(secondAt, wire));
  }

  @Test
  void largeAndDeeplyNestedMembersSurviveTheWire() {
    SessionBatch batch = SessionBatch.ofResponses(List.of(JsonRpcMessageCodecTest.bigResponse(5 * 1024 * 1024),
        JsonRpcMessageCodecTest.deepResponse(100)));
    Buffer wire = Buffer.buffer();
    codec.encodeToWire(wire, batch);
    assertTrue(batch.equals(codec.decodeFromWire(0, wire)), "the batch changed on the wire");
  }

  @Test
  void messagesListsInvalidMembersAsTheirErrorResponses() {
    SessionBatch batch = mixedBatch();
    List<JsonRpcMessage> messages = batch.messages();
    assertEquals(batch.members().size(), messages.size());
    assertSame(((Decoded.Invalid) batch.members().get(1)).response(), messages.get(1));
  }

  @Test
  void transformHandsOverTheSameInstance() {
    SessionBatch batch = mixedBatch();
    assertSame(batch, codec.transform(batch));
    assertEquals(-1, codec.systemCodecID());
  }
}
