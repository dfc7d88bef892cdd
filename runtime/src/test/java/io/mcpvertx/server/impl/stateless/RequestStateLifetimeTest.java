package io.mcpvertx.server.impl.stateless;

import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.StatelessOptions;
import io.mcpvertx.server.StatelessServer;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.impl.McpServerImpl;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.server.McpStores;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lifetime of a {@code requestState}: it expires after {@link StatelessOptions#getRequestStateTtlMs()}, and a
 * rotated key keeps verifying what it signed. Time is the engine's clock seam, moved by hand: no waiting.
 */
@ExtendWith(VertxExtension.class)
class RequestStateLifetimeTest {

  private static final String OLD_KEY = "old-key-0123456789abcdef0123456789abcdef";
  private static final String NEW_KEY = "new-key-0123456789abcdef0123456789abcdef";
  private static final long TTL_MS = 50;

  private final AtomicLong now = new AtomicLong(1_000_000);

  private StatelessServer engine(Vertx vertx, List<String> keys) {
    McpServerOptions options = new McpServerOptions().setStatelessOptions(new StatelessOptions()
        .setRequestStateKeys(keys).setRequestStateTtlMs(TTL_MS));
    McpServer server = new McpServerImpl(vertx, options, McpStores.inMemory(vertx), null, now::get);
    server.tool(Tool.builder("ask").build(), (args, ctx) -> ctx.elicit("color", ElicitRequest.form("Color?",
            new JsonObject().put("type", "object").put("properties", new JsonObject().put("color",
                new JsonObject().put("type", "string")))))
        .compose(first -> ctx.elicit("size", ElicitRequest.form("Size?", new JsonObject().put("type", "object")
            .put("properties", new JsonObject().put("size", new JsonObject().put("type", "string"))))))
        .map(answer -> ToolResult.text("done")));
    return server.stateless();
  }

  private static JsonObject params(String state, JsonObject answers) {
    JsonObject meta = new JsonObject()
        .put(StatelessServer.META_PROTOCOL_VERSION, "2026-07-28")
        .put(StatelessServer.META_CLIENT_CAPABILITIES, new JsonObject().put("elicitation", new JsonObject()));
    JsonObject params = new JsonObject().put("name", "ask").put("arguments", new JsonObject()).put("_meta", meta);
    if (state != null) {
      params.put("requestState", state);
    }
    if (answers != null) {
      params.put("inputResponses", answers);
    }
    return params;
  }

  private static Future<JsonRpcMessage> serve(Context context, StatelessServer engine, JsonObject params) {
    Promise<JsonRpcMessage> promise = Promise.promise();
    context.runOnContext(v -> {
      JsonRpcRequest request = new JsonRpcRequest(JsonRpcId.of(1), "tools/call", params);
      assertEquals(null, engine.validate(request));
      engine.serve(request, null, message -> { }).response().onComplete(promise);
    });
    return promise.future();
  }

  /** Round one, then round two (answering color), yielding round two's state, which carries the answer. */
  private Future<String> secondRoundState(Context context, StatelessServer engine) {
    JsonObject color = new JsonObject().put("color", new JsonObject().put("action", "accept")
        .put("content", new JsonObject().put("color", "red")));
    return serve(context, engine, params(null, null))
        .compose(r1 -> serve(context, engine, params(state(r1), color)))
        .map(RequestStateLifetimeTest::state);
  }

  private static String state(JsonRpcMessage message) {
    assertTrue(message instanceof JsonRpcResponse, () -> "expected a result, got " + message);
    JsonObject result = ((JsonRpcResponse) message).result();
    assertEquals("input_required", result.getString("resultType"));
    return result.getString("requestState");
  }

  private static JsonObject sizeAnswer() {
    return new JsonObject().put("size", new JsonObject().put("action", "accept")
        .put("content", new JsonObject().put("size", "L")));
  }

  private static void assertComplete(JsonRpcMessage message) {
    assertTrue(message instanceof JsonRpcResponse, () -> "expected a result, got " + message);
    assertEquals("complete", ((JsonRpcResponse) message).result().getString("resultType"));
  }

  private static void assertInvalid(JsonRpcMessage message, String text) {
    assertTrue(message instanceof JsonRpcErrorResponse, () -> "expected an error, got " + message);
    JsonRpcErrorResponse error = (JsonRpcErrorResponse) message;
    assertEquals(-32602, error.error().code());
    assertTrue(error.error().message().contains(text), error.error()::message);
  }

  @Test
  void aStateServesUntilItsLifetimeEndsAndNotAfter(Vertx vertx, VertxTestContext test) {
    Context context = vertx.getOrCreateContext();
    StatelessServer engine = engine(vertx, List.of(OLD_KEY));
    secondRoundState(context, engine).compose(state -> {
      now.addAndGet(TTL_MS);
      return serve(context, engine, params(state, sizeAnswer())).map(atTheEnd -> {
        assertComplete(atTheEnd);
        return state;
      });
    }).compose(state -> {
      now.addAndGet(1);
      return serve(context, engine, params(state, sizeAnswer()));
    }).onComplete(test.succeeding(expired -> test.verify(() -> {
      assertInvalid(expired, "expired");
      test.completeNow();
    })));
  }

  @Test
  void aRotatedKeyStillVerifiesWhatItSignedUntilItIsDropped(Vertx vertx, VertxTestContext test) {
    Context context = vertx.getOrCreateContext();
    StatelessServer before = engine(vertx, List.of(OLD_KEY));
    StatelessServer during = engine(vertx, List.of(NEW_KEY, OLD_KEY));
    StatelessServer after = engine(vertx, List.of(NEW_KEY));
    secondRoundState(context, before)
        .compose(state -> serve(context, during, params(state, sizeAnswer())).map(result -> {
          assertComplete(result);
          return state;
        }))
        .compose(state -> serve(context, after, params(state, sizeAnswer())))
        .onComplete(test.succeeding(result -> test.verify(() -> {
          assertInvalid(result, "integrity");
          test.completeNow();
        })));
  }

  @Test
  void withoutConfiguredKeysEachServerSignsWithItsOwn(Vertx vertx, VertxTestContext test) {
    Context context = vertx.getOrCreateContext();
    StatelessServer one = engine(vertx, List.of());
    StatelessServer other = engine(vertx, List.of());
    secondRoundState(context, one)
        .compose(state -> serve(context, other, params(state, sizeAnswer())))
        .onComplete(test.succeeding(result -> test.verify(() -> {
          assertInvalid(result, "integrity");
          test.completeNow();
        })));
  }
}
