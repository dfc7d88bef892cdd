package io.mcpvertx.verticles;

import static io.mcpvertx.verticles.BusClient.last;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.verticles.bus.McpEventBus;
import io.mcpvertx.verticles.bus.SessionBatch;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class McpSessionVerticleTest {

  private static final String LATEST = "2025-11-25";

  private static McpServer echoServer(Vertx vertx) {
    return McpServer.create(vertx).tool(Tool.builder("echo").inputSchema(new JsonObject().put("type", "object")
            .put("properties", new JsonObject().put("text", new JsonObject().put("type", "string")))
            .put("required", new JsonArray().add("text"))).build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text(args.getString("text"))));
  }

  private static JsonRpcRequest call(long id, String tool, JsonObject arguments, JsonObject meta) {
    JsonObject params = new JsonObject().put("name", tool).put("arguments", arguments);
    if (meta != null) {
      params.put("_meta", meta);
    }
    return new JsonRpcRequest(JsonRpcId.of(id), "tools/call", params);
  }

  private static JsonRpcResponse responseWithId(List<JsonRpcMessage> responses, long id) {
    return responses.stream().filter(r -> r instanceof JsonRpcResponse rr && rr.id().equals(JsonRpcId.of(id)))
        .map(JsonRpcResponse.class::cast).findFirst().orElseThrow();
  }

  private static String text(Message<Object> response) {
    return ((JsonRpcResponse) response.body()).result().getJsonArray("content").getJsonObject(0).getString("text");
  }

  @Test
  void answersInitializeAndAToolCallAtTheirReplyToWithTheirStream(Vertx vertx, VertxTestContext test) {
    BusClient.connect(vertx, echoServer(vertx))
        .compose(client -> client.exchange(BusClient.initializeRequest(1, LATEST, null), "stream-init")
            .compose(replies -> {
              Message<Object> response = last(replies);
              assertEquals(1, replies.size());
              assertEquals(LATEST, ((JsonRpcResponse) response.body()).result().getString("protocolVersion"));
              assertEquals("stream-init", response.headers().get(McpEventBus.STREAM));
              assertNull(response.headers().get(McpEventBus.UNSOLICITED));
              client.send(new JsonRpcNotification("notifications/initialized", null), "test.nowhere", null);
              return client.exchange(call(2, "echo", new JsonObject().put("text", "hi"), null), "stream-call");
            }))
        .onComplete(test.succeeding(replies -> test.verify(() -> {
          Message<Object> response = last(replies);
          assertEquals(JsonRpcId.of(2), ((JsonRpcResponse) response.body()).id());
          assertEquals("hi", text(response));
          assertEquals("stream-call", response.headers().get(McpEventBus.STREAM));
          test.completeNow();
        })));
  }

  @Test
  void aRequestWithoutAStreamIsAnsweredWithoutOne(Vertx vertx, VertxTestContext test) {
    BusClient.connect(vertx, echoServer(vertx))
        .compose(client -> client.exchange(new JsonRpcRequest(JsonRpcId.of("p"), "ping", null)))
        .onComplete(test.succeeding(replies -> test.verify(() -> {
          assertEquals(new JsonRpcResponse(JsonRpcId.of("p"), new JsonObject()), last(replies).body());
          assertFalse(last(replies).headers().contains(McpEventBus.STREAM));
          test.completeNow();
        })));
  }

  @Test
  void aRequestWithoutReplyToIsAnsweredAtTheDefaultAddress(Vertx vertx, VertxTestContext test) {
    BusClient.connect(vertx, echoServer(vertx))
        .compose(client -> {
          client.send(new JsonRpcRequest(JsonRpcId.of(9), "ping", null), null, null);
          return client.awaitUnsolicitedResponse();
        })
        .onComplete(test.succeeding(message -> test.verify(() -> {
          assertEquals(new JsonRpcResponse(JsonRpcId.of(9), new JsonObject()), message.body());
          test.completeNow();
        })));
  }

  @Test
  void progressFromAToolArrivesAtTheRequestsReplyToBeforeItsResponse(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).tool(Tool.builder("count").build(), (args, ctx) -> {
      ctx.progress(1, 2d, "half");
      ctx.progress(2, 2d, "done");
      return Future.succeededFuture(ToolResult.text("counted"));
    });
    BusClient.connect(vertx, server)
        .compose(client -> client.initialize(LATEST, null)
            .compose(init -> client.exchange(call(2, "count", new JsonObject(),
                new JsonObject().put("progressToken", "tok")), "s-7")))
        .onComplete(test.succeeding(replies -> test.verify(() -> {
          assertEquals(3, replies.size());
          for (int i = 0; i < 2; i++) {
            JsonRpcNotification progress = assertInstanceOf(JsonRpcNotification.class, replies.get(i).body());
            assertEquals("notifications/progress", progress.method());
            assertEquals("tok", progress.params().getString("progressToken"));
            assertEquals(i + 1, progress.params().getInteger("progress"));
          }
          assertEquals("counted", text(last(replies)));
          replies.forEach(m -> assertEquals("s-7", m.headers().get(McpEventBus.STREAM)));
          test.completeNow();
        })));
  }

  @Test
  void listChangedAfterRegisteringAToolArrivesAtTheDefaultAddressAsUnsolicited(Vertx vertx, VertxTestContext test) {
    McpServer server = echoServer(vertx);
    BusClient.connect(vertx, server)
        .compose(client -> client.initialize(LATEST, null)
            // The ping follows notifications/initialized on the bus, so the session is operating once it is answered.
            .compose(init -> client.exchange(new JsonRpcRequest(JsonRpcId.of(2), "ping", null)))
            .compose(pong -> {
              server.tool(Tool.builder("added").build(), (args, ctx) -> Future.succeededFuture(ToolResult.text("")));
              return client.awaitUnsolicited("notifications/tools/list_changed");
            }))
        .onComplete(test.succeeding(message -> test.verify(() -> {
          assertEquals("true", message.headers().get(McpEventBus.UNSOLICITED));
          assertFalse(message.headers().contains(McpEventBus.STREAM));
          test.completeNow();
        })));
  }

  @Test
  void servesABatchOn20250326AndAnswersWithOneSessionBatch(Vertx vertx, VertxTestContext test) {
    JsonRpcErrorResponse invalid = new JsonRpcErrorResponse(null,
        new JsonRpcError(JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: a message must be a JSON object"));
    SessionBatch batch = new SessionBatch(List.of(
        new Decoded.Message(new JsonRpcRequest(JsonRpcId.of(2), "tools/list", null)),
        new Decoded.Invalid(invalid),
        new Decoded.Message(new JsonRpcNotification("notifications/cancelled",
            new JsonObject().put("requestId", 99))),
        new Decoded.Message(call(3, "echo", new JsonObject().put("text", "in a batch"), null))));
    BusClient.connect(vertx, echoServer(vertx))
        .compose(client -> client.initialize("2025-03-26", null).compose(init -> client.exchange(batch, "b")))
        .onComplete(test.succeeding(replies -> test.verify(() -> {
          assertEquals(1, replies.size());
          SessionBatch answer = assertInstanceOf(SessionBatch.class, replies.get(0).body());
          assertEquals("b", replies.get(0).headers().get(McpEventBus.STREAM));
          List<JsonRpcMessage> responses = answer.messages();
          assertEquals(3, responses.size());
          assertTrue(responses.contains(invalid));
          JsonRpcResponse list = responseWithId(responses, 2);
          assertEquals("echo", list.result().getJsonArray("tools").getJsonObject(0).getString("name"));
          JsonRpcResponse echoed = responseWithId(responses, 3);
          assertEquals("in a batch", echoed.result().getJsonArray("content").getJsonObject(0).getString("text"));
          test.completeNow();
        })));
  }

  @Test
  void rejectsABatchOnARevisionWithoutBatches(Vertx vertx, VertxTestContext test) {
    SessionBatch batch = new SessionBatch(List.of(
        new Decoded.Message(new JsonRpcRequest(JsonRpcId.of(2), "ping", null))));
    BusClient.connect(vertx, echoServer(vertx))
        .compose(client -> client.initialize("2025-06-18", null).compose(init -> client.exchange(batch)))
        .onComplete(test.succeeding(replies -> test.verify(() -> {
          JsonRpcErrorResponse error = assertInstanceOf(JsonRpcErrorResponse.class, last(replies).body());
          assertNull(error.id());
          assertEquals(JsonRpcErrorCodes.INVALID_REQUEST, error.error().code());
          test.completeNow();
        })));
  }

  @Test
  void aServerRequestGoesToTheReplyToAndTheClientsAnswerCompletesIt(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).tool(Tool.builder("ask").build(), (args, ctx) ->
        ctx.elicit(ElicitRequest.form("Name?", new JsonObject().put("type", "object")))
            .map(answer -> ToolResult.text(answer.action() + ":" + answer.content().getString("name"))));
    BusClient.connect(vertx, server)
        .compose(client -> client.answerServerRequests(request -> new JsonRpcResponse(request.id(),
                new JsonObject().put("action", "accept").put("content", new JsonObject().put("name", "Ada"))))
            .initialize(LATEST, new JsonObject().put("elicitation", new JsonObject()))
            .compose(init -> client.exchange(call(2, "ask", new JsonObject(), null), "s-ask")))
        .onComplete(test.succeeding(replies -> test.verify(() -> {
          assertEquals(2, replies.size());
          JsonRpcRequest elicitation = assertInstanceOf(JsonRpcRequest.class, replies.get(0).body());
          assertEquals("elicitation/create", elicitation.method());
          assertEquals("s-ask", replies.get(0).headers().get(McpEventBus.STREAM));
          assertEquals("accept:Ada", text(last(replies)));
          test.completeNow();
        })));
  }

  @Test
  void ignoresABodyThatIsNoMessageAndKeepsServing(Vertx vertx, VertxTestContext test) {
    BusClient.connect(vertx, echoServer(vertx))
        .compose(client -> {
          client.send("not a message", "test.nowhere", null);
          client.send(new JsonObject().put("jsonrpc", "2.0"), "test.nowhere", null);
          return client.exchange(new JsonRpcRequest(JsonRpcId.of(1), "ping", null));
        })
        .onComplete(test.succeeding(replies -> test.verify(() -> {
          assertEquals(new JsonRpcResponse(JsonRpcId.of(1), new JsonObject()), last(replies).body());
          test.completeNow();
        })));
  }

  @Test
  void aProtocolClientOverTheBusGetsAnswersValidInTheNegotiatedRevision(Vertx vertx, VertxTestContext test) {
    JsonObject nameForm = new JsonObject().put("type", "object")
        .put("properties", new JsonObject().put("name", new JsonObject().put("type", "string")));
    McpServer server = McpServer.create(vertx)
        .tool(Tool.builder("ask").build(), (args, ctx) -> ctx.elicit(ElicitRequest.form("Name?", nameForm))
                .map(answer -> ToolResult.text(answer.action() + ":" + answer.content().getString("name"))))
        .tool(Tool.builder("count").build(), (args, ctx) -> {
          ctx.progress(1, 1d, "done");
          return Future.succeededFuture(ToolResult.text("counted"));
        });
    BusClient.connect(vertx, server).compose(BusClient::sessionClient).compose(client -> client
            .onRequest("elicitation/create", params -> Future.succeededFuture(new JsonObject()
                .put("action", "accept").put("content", new JsonObject().put("name", "Ada"))))
            .connect(LATEST, new JsonObject().put("elicitation", new JsonObject()))
            .compose(connected -> client.toolsCall("ask", new JsonObject()))
            .compose(asked -> {
              test.verify(() -> assertEquals("accept:Ada",
                  asked.getJsonArray("content").getJsonObject(0).getString("text")));
              return client.call("tools/call", new JsonObject().put("name", "count")
                  .put("arguments", new JsonObject()).put("_meta", new JsonObject().put("progressToken", "tok")));
            })
            .compose(counted -> client.awaitNotification("notifications/progress").map(progress -> {
              test.verify(() -> {
                assertEquals("counted", counted.getJsonArray("content").getJsonObject(0).getString("text"));
                assertEquals("tok", progress.getJsonObject("params").getString("progressToken"));
                client.assertNoViolations();
              });
              return client;
            }))
            .compose(McpTestClient::close))
        .onComplete(test.succeedingThenComplete());
  }
}
