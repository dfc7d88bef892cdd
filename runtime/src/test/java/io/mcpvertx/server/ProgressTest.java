package io.mcpvertx.server;

import static io.mcpvertx.server.McpTesting.assertNoViolations;
import static io.mcpvertx.server.McpTesting.open;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** notifications/progress for requests that carry a progressToken. */
@ExtendWith(VertxExtension.class)
class ProgressTest {

  private final AtomicReference<RequestContext> lastContext = new AtomicReference<>();

  /** A tool that runs {@code steps} against its context, then answers. */
  private McpServer server(Vertx vertx, Consumer<RequestContext> steps) {
    return McpServer.create(vertx).tool(Tool.builder("work").build(), (args, ctx) -> {
      lastContext.set(ctx);
      steps.accept(ctx);
      return Future.succeededFuture(ToolResult.text("done"));
    });
  }

  private static JsonObject call(Object token) {
    JsonObject params = new JsonObject().put("name", "work");
    return token == null ? params : params.put("_meta", new JsonObject().put("progressToken", token));
  }

  private static List<JsonObject> progress(McpTestClient client) {
    return client.notifications("notifications/progress").stream().map(n -> n.getJsonObject("params")).toList();
  }

  @Test
  void reportsProgressUnderAStringToken(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx, ctx -> {
      ctx.progress(1, 3.0, "Fetched");
      ctx.progress(2, 3.0, "Parsed");
    });
    open(vertx, server, "2025-11-25").compose(client -> client.call("tools/call", call("job-7")).map(result -> {
      assertEquals(List.of(
          new JsonObject().put("progressToken", "job-7").put("progress", 1.0).put("total", 3.0)
              .put("message", "Fetched"),
          new JsonObject().put("progressToken", "job-7").put("progress", 2.0).put("total", 3.0)
              .put("message", "Parsed")),
          progress(client));
      assertNoViolations(client);
      return result;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void reportsProgressUnderANumberToken(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx, ctx -> ctx.progress(0.5, null, null));
    open(vertx, server, "2025-06-18").compose(client -> client.call("tools/call", call(42)).map(result -> {
      JsonObject params = progress(client).get(0);
      assertEquals(42, ((Number) params.getValue("progressToken")).intValue());
      assertTrue(params.getValue("progressToken") instanceof Number, "a number token stays a number");
      assertEquals(0.5, params.getDouble("progress"));
      assertFalse(params.containsKey("total"));
      assertFalse(params.containsKey("message"));
      assertNoViolations(client);
      return result;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void dropsValuesThatDoNotIncrease(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx, ctx -> {
      ctx.progress(1, null, null);
      ctx.progress(1, null, null);
      ctx.progress(0.5, null, null);
      ctx.progress(Double.NaN, null, null);
      ctx.progress(2, null, null);
    });
    open(vertx, server, "2025-11-25").compose(client -> client.call("tools/call", call("t")).map(result -> {
      assertEquals(List.of(1.0, 2.0), progress(client).stream().map(p -> p.getDouble("progress")).toList());
      assertNoViolations(client);
      return result;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void sendsOnlyFiniteNumbers(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx, ctx -> {
      ctx.progress(Double.POSITIVE_INFINITY, null, null);
      ctx.progress(1, Double.POSITIVE_INFINITY, null);
      ctx.progress(2, Double.NaN, null);
    });
    open(vertx, server, "2025-11-25").compose(client -> client.call("tools/call", call("t")).map(result -> {
      List<JsonObject> sent = progress(client);
      assertEquals(List.of(1.0, 2.0), sent.stream().map(p -> p.getDouble("progress")).toList());
      assertTrue(sent.stream().noneMatch(p -> p.containsKey("total")), sent.toString());
      assertNoViolations(client);
      return result;
    })).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-03-26", "2024-11-05"})
  void sendsTheMessageOnlyToRevisionsThatHaveIt(String version, Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx, ctx -> ctx.progress(1, 2.0, "Halfway"));
    open(vertx, server, version).compose(client -> client.call("tools/call", call("t")).map(result -> {
      JsonObject params = progress(client).get(0);
      assertEquals(!version.equals("2024-11-05"), params.containsKey("message"), params.encode());
      assertEquals(2.0, params.getDouble("total"));
      assertNoViolations(client);
      return result;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void sendsNothingWithoutAToken(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx, ctx -> ctx.progress(1, null, "Working"));
    open(vertx, server, "2025-11-25").compose(client -> client.call("tools/call", call(null)).map(result -> {
      assertTrue(client.notifications().isEmpty(), client.notifications().toString());
      assertNoViolations(client);
      return result;
    })).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"not\":\"a token\"}", "1.5", "1.0", "true", "[\"t\"]"})
  void answersInvalidParamsForATokenThatIsNeitherStringNorInteger(String token, Vertx vertx,
      VertxTestContext test) {
    // The schema's ProgressToken is a string or an integer: anything else is the client's mistake, said so.
    McpServer server = server(vertx, ctx -> ctx.progress(1, null, null));
    open(vertx, server, "2025-11-25").compose(client -> client.request("tools/call",
        call(io.vertx.core.json.Json.decodeValue(token))).map(response -> {
          McpTesting.assertError(response, -32602);
          assertTrue(response.getJsonObject("error").getString("message").contains("progressToken"),
              response::encode);
          assertTrue(lastContext.get() == null, "the handler never ran");
          assertTrue(client.notifications().isEmpty(), client.notifications().toString());
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"token\"", "[1]", "7"})
  void answersInvalidParamsWhenMetaIsNotAnObject(String meta, Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx, ctx -> ctx.progress(1, null, null));
    JsonObject params = call(null).put("_meta", io.vertx.core.json.Json.decodeValue(meta));
    open(vertx, server, "2025-11-25").compose(client -> client.request("tools/call", params).map(response -> {
      McpTesting.assertError(response, -32602);
      assertTrue(client.notifications().isEmpty(), client.notifications().toString());
      assertNoViolations(client);
      return response;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void sendsNothingAfterTheResponse(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx, ctx -> ctx.progress(1, null, null));
    open(vertx, server, "2025-11-25").compose(client -> client.call("tools/call", call("t")).compose(result -> {
      lastContext.get().progress(2, null, "too late");
      return client.call("ping", null);
    }).map(pong -> {
      assertEquals(1, progress(client).size());
      assertNoViolations(client);
      return pong;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void keepsTokensOfConcurrentRequestsApart(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx, ctx -> ctx.progress(1, null, ctx.meta().getString("progressToken")));
    open(vertx, server, "2025-11-25").compose(client -> Future.all(client.call("tools/call", call("a")),
        client.call("tools/call", call("b"))).map(all -> {
          List<JsonObject> sent = progress(client);
          assertEquals(2, sent.size());
          for (JsonObject params : sent) {
            assertEquals(params.getString("progressToken"), params.getString("message"));
          }
          assertNoViolations(client);
          return all;
        })).onComplete(test.succeedingThenComplete());
  }
}
