package io.mcpvertx.server;

import static io.mcpvertx.server.SessionFixtures.assertError;
import static io.mcpvertx.server.SessionFixtures.assertNoViolations;
import static io.mcpvertx.server.SessionFixtures.errorOf;
import static io.mcpvertx.server.SessionFixtures.onlyUnmatched;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcCodecOptions;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Raw frames a client should never send, end to end through the codec and the session: each gets the error it
 * deserves, schema-valid, and the session keeps working.
 */
@ExtendWith(VertxExtension.class)
class BadInputTest {

  private static McpServer limitedServer(Vertx vertx) {
    return SessionFixtures.echoServer(vertx, new McpServerOptions()
        .setCodecOptions(new JsonRpcCodecOptions().setMaxMessageBytes(256).setMaxNestingDepth(8)));
  }

  /** Sends {@code frame} after initializing, then checks the one answer and that tools/call still works. */
  private static Future<JsonObject> sendAndExpect(Vertx vertx, McpServer server, String version, String frame,
      int code, Object id) {
    return McpTestClient.inProcess(vertx, server).compose(client -> client.initialize(version)
        .compose(init -> {
          client.send(Buffer.buffer(frame));
          return client.call("tools/call", new JsonObject().put("name", "echo")
              .put("arguments", new JsonObject().put("text", "still here")));
        })
        .map(result -> {
          JsonObject answer = onlyUnmatched(client);
          assertError(answer, code, id);
          assertEquals("still here", result.getJsonArray("content").getJsonObject(0).getString("text"));
          assertNoViolations(client);
          return answer;
        }));
  }

  @ParameterizedTest
  @CsvSource({"2025-03-26", "2025-06-18", "2025-11-25"})
  void answersMalformedJsonWithParseError(String version, Vertx vertx, VertxTestContext test) {
    sendAndExpect(vertx, SessionFixtures.fullServer(vertx), version,
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"", JsonRpcErrorCodes.PARSE_ERROR, null)
        .onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @CsvSource({"2025-03-26", "2025-06-18", "2025-11-25"})
  void answersTrailingGarbageWithParseError(String version, Vertx vertx, VertxTestContext test) {
    sendAndExpect(vertx, SessionFixtures.fullServer(vertx), version,
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"} trailing", JsonRpcErrorCodes.PARSE_ERROR, null)
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersWrongJsonrpcVersionWithInvalidRequestAndTheId(Vertx vertx, VertxTestContext test) {
    sendAndExpect(vertx, SessionFixtures.fullServer(vertx), "2025-11-25",
        "{\"jsonrpc\":\"1.0\",\"id\":\"v\",\"method\":\"ping\"}", JsonRpcErrorCodes.INVALID_REQUEST, "v")
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersMissingJsonrpcWithInvalidRequest(Vertx vertx, VertxTestContext test) {
    sendAndExpect(vertx, SessionFixtures.fullServer(vertx), "2025-06-18",
        "{\"id\":77,\"method\":\"tools/list\"}", JsonRpcErrorCodes.INVALID_REQUEST, 77)
        .onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {"null", "true", "1.5", "{}", "[1]"})
  void answersRequestWithUnusableIdWithInvalidRequestAndIdNull(String id, Vertx vertx, VertxTestContext test) {
    sendAndExpect(vertx, SessionFixtures.fullServer(vertx), "2025-11-25",
        "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/list\"}", JsonRpcErrorCodes.INVALID_REQUEST, null)
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersNonStringMethodWithInvalidRequest(Vertx vertx, VertxTestContext test) {
    sendAndExpect(vertx, SessionFixtures.fullServer(vertx), "2025-11-25",
        "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":[\"ping\"]}", JsonRpcErrorCodes.INVALID_REQUEST, 8)
        .onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {"[1,2]", "\"cursor\"", "3", "true"})
  void answersParamsThatAreNotAnObjectWithInvalidParams(String params, Vertx vertx, VertxTestContext test) {
    sendAndExpect(vertx, SessionFixtures.fullServer(vertx), "2025-11-25",
        "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"tools/list\",\"params\":" + params + "}",
        JsonRpcErrorCodes.INVALID_PARAMS, "p")
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersResultThatIsNotAnObjectWithInvalidRequest(Vertx vertx, VertxTestContext test) {
    sendAndExpect(vertx, SessionFixtures.fullServer(vertx), "2025-11-25",
        "{\"jsonrpc\":\"2.0\",\"id\":40,\"result\":\"ok\"}", JsonRpcErrorCodes.INVALID_REQUEST, 40)
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersEmptyBatchWithInvalidRequest(Vertx vertx, VertxTestContext test) {
    sendAndExpect(vertx, SessionFixtures.fullServer(vertx), "2025-03-26", "[]", JsonRpcErrorCodes.INVALID_REQUEST, null)
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersOversizeMessageNamingTheLimit(Vertx vertx, VertxTestContext test) {
    String frame = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\""
        + "x".repeat(300) + "\"}}";
    sendAndExpect(vertx, limitedServer(vertx), "2025-11-25", frame, JsonRpcErrorCodes.INVALID_REQUEST, null)
        .map(answer -> {
          test.verify(() -> assertTrue(errorOf(answer).getString("message").contains("256"), answer.encode()));
          return answer;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersDeeplyNestedMessageNamingTheLimit(Vertx vertx, VertxTestContext test) {
    String frame = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"arguments\":"
        + "[".repeat(10) + "]".repeat(10) + "}}";
    sendAndExpect(vertx, limitedServer(vertx), "2025-06-18", frame, JsonRpcErrorCodes.INVALID_REQUEST, null)
        .map(answer -> {
          test.verify(() -> assertTrue(errorOf(answer).getString("message").contains("8"), answer.encode()));
          return answer;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersMetaThatIsNotAnObjectWithInvalidParams(Vertx vertx, VertxTestContext test) {
    sendAndExpect(vertx, SessionFixtures.fullServer(vertx), "2025-11-25",
        "{\"jsonrpc\":\"2.0\",\"id\":\"m\",\"method\":\"tools/list\",\"params\":{\"_meta\":\"token\"}}",
        JsonRpcErrorCodes.INVALID_PARAMS, "m")
        .onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "tools/call|{\"name\":5}",
      "tools/call|{\"name\":\"echo\",\"arguments\":\"text\"}",
      "tools/call|{\"name\":\"no-such-tool\"}",
      "tools/list|{\"cursor\":7}",
      "resources/read|{}",
      "resources/subscribe|{\"uri\":[\"memo://greeting\"]}",
      "prompts/get|{\"name\":\"greet\",\"arguments\":{\"name\":5}}",
      "prompts/get|{\"name\":\"greet\",\"arguments\":[\"Ada\"]}",
      "logging/setLevel|{\"level\":\"loud\"}",
      "logging/setLevel|{\"level\":3}",
      "completion/complete|{\"ref\":{\"type\":1,\"name\":\"greet\"},\"argument\":{\"name\":\"name\",\"value\":\"A\"}}",
      "completion/complete|{\"ref\":\"greet\",\"argument\":{\"name\":\"name\",\"value\":\"A\"}}",
      "completion/complete|{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"greet\"},\"argument\":{\"name\":\"name\"}}"})
  void answersMembersOfTheWrongTypeWithInvalidParams(String method, String params, Vertx vertx,
      VertxTestContext test) {
    sendAndExpect(vertx, SessionFixtures.fullServer(vertx), "2025-11-25",
        "{\"jsonrpc\":\"2.0\",\"id\":\"bad\",\"method\":\"" + method + "\",\"params\":" + params + "}",
        JsonRpcErrorCodes.INVALID_PARAMS, "bad")
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void acceptsIntegersBeyond64BitsInArguments(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).tool(Tool.builder("size")
        .inputSchema(new JsonObject().put("type", "object")
            .put("properties", new JsonObject().put("n", new JsonObject().put("type", "integer"))))
        .build(), (args, ctx) -> Future.succeededFuture(ToolResult.text(String.valueOf(args.getValue("n")))));
    McpTestClient.inProcess(vertx, server)
        .compose(client -> client.initialize("2025-11-25")
            .compose(init -> {
              client.send(Buffer.buffer("{\"jsonrpc\":\"2.0\",\"id\":\"big\",\"method\":\"tools/call\","
                  + "\"params\":{\"name\":\"size\",\"arguments\":{\"n\":123456789012345678901234567890}}}"));
              return client.call("ping", null);
            })
            .map(pong -> {
              test.verify(() -> {
                JsonObject answer = onlyUnmatched(client);
                assertEquals("123456789012345678901234567890", answer.getJsonObject("result")
                    .getJsonArray("content").getJsonObject(0).getString("text"), answer.encode());
                assertNoViolations(client);
              });
              return pong;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void cancelsEvenWhenTheReasonIsNotAString(Vertx vertx, VertxTestContext test) {
    SessionFixtures.Gate gate = new SessionFixtures.Gate();
    McpTestClient.inProcess(vertx, gate.register(SessionFixtures.fullServer(vertx)))
        .compose(client -> client.initialize("2025-11-25")
            .compose(init -> {
              long id = client.nextRequestId();
              Future<JsonObject> call = client.request("tools/call", SessionFixtures.waitCall());
              client.notify("notifications/cancelled", new JsonObject().put("requestId", id)
                  .put("reason", new JsonArray().add("not").add("text")));
              return client.call("ping", null).map(pong -> {
                gate.releaseAll();
                return call;
              });
            })
            .compose(call -> client.call("ping", null).map(pong -> {
              test.verify(() -> {
                assertEquals(1, gate.cancellations.size());
                assertFalse(call.isComplete(), "a cancelled request must get no response");
                assertTrue(client.unmatched().isEmpty(), client.unmatched().toString());
                assertNoViolations(client);
              });
              return pong;
            })))
        .onComplete(test.succeedingThenComplete());
  }
}
