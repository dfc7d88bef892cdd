package io.mcpvertx.server;

import static io.mcpvertx.server.McpTesting.assertError;
import static io.mcpvertx.server.McpTesting.assertNoViolations;
import static io.mcpvertx.server.McpTesting.firstContent;
import static io.mcpvertx.server.McpTesting.open;
import static io.mcpvertx.server.McpTesting.stringProperties;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** server.blockingTool and ctx.executeBlocking: blocking code never runs on the event loop. */
@ExtendWith(VertxExtension.class)
class BlockingToolTest {

  /** Where the calling code runs, as JSON. */
  private static JsonObject whereAmI() {
    return new JsonObject().put("eventLoop", Context.isOnEventLoopThread())
        .put("worker", Context.isOnWorkerThread()).put("thread", Thread.currentThread().toString());
  }

  private static JsonObject call(String name) {
    return new JsonObject().put("name", name);
  }

  @ParameterizedTest
  @EnumSource(BlockingExecution.class)
  void runsABlockingToolOffTheEventLoop(BlockingExecution mode, Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx, new McpServerOptions().setBlockingExecution(mode))
        .blockingTool(Tool.builder("where").build(), (args, ctx) -> ToolResult.text(whereAmI().encode()));
    open(vertx, server, "2025-11-25").compose(client -> client.call("tools/call", call("where")).map(result -> {
      JsonObject where = new JsonObject(firstContent(result).getString("text"));
      assertFalse(where.getBoolean("eventLoop"), where.encode());
      if (mode == BlockingExecution.WORKER || Runtime.version().feature() < 21) {
        // Virtual threads need JDK 21; before that the server falls back to the worker pool.
        assertTrue(where.getBoolean("worker"), where.encode());
      }
      assertNoViolations(client);
      return result;
    })).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @EnumSource(BlockingExecution.class)
  void completesExecuteBlockingBackOnTheSessionsEventLoop(BlockingExecution mode, Vertx vertx,
      VertxTestContext test) {
    McpServer server = McpServer.create(vertx, new McpServerOptions().setBlockingExecution(mode))
        .tool(Tool.builder("hop").build(), (args, ctx) -> {
          Context session = Vertx.currentContext();
          return ctx.executeBlocking(BlockingToolTest::whereAmI).map(inside -> ToolResult.text(new JsonObject()
              .put("inside", inside).put("after", whereAmI().put("sameContext", Vertx.currentContext() == session))
              .encode()));
        });
    open(vertx, server, "2025-11-25").compose(client -> client.call("tools/call", call("hop")).map(result -> {
      JsonObject hop = new JsonObject(firstContent(result).getString("text"));
      assertFalse(hop.getJsonObject("inside").getBoolean("eventLoop"), hop.encode());
      assertTrue(hop.getJsonObject("after").getBoolean("eventLoop"), hop.encode());
      assertTrue(hop.getJsonObject("after").getBoolean("sameContext"), hop.encode());
      assertNoViolations(client);
      return result;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void servesOtherRequestsWhileABlockingToolWaits(Vertx vertx, VertxTestContext test) {
    CountDownLatch release = new CountDownLatch(1);
    McpServer server = McpServer.create(vertx)
        .blockingTool(Tool.builder("wait").build(), (args, ctx) -> {
          // Bounded only so a broken build fails instead of hanging; the test releases it at once.
          boolean released = release.await(30, TimeUnit.SECONDS);
          return ToolResult.text(released ? "released" : "gave up");
        })
        .tool(Tool.builder("release").build(), (args, ctx) -> {
          release.countDown();
          return Future.succeededFuture(ToolResult.text("ok"));
        });
    open(vertx, server, "2025-11-25").compose(client -> {
      Future<JsonObject> waiting = client.call("tools/call", call("wait"));
      return client.call("tools/call", call("release")).compose(r -> waiting).map(result -> {
        assertEquals("released", firstContent(result).getString("text"));
        assertNoViolations(client);
        return result;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  /**
   * The handler's thread queues its messages on the session's context and then finishes; the response must not
   * overtake them. The race this guards against is lost only now and then, hence the repetitions.
   */
  @RepeatedTest(40)
  void deliversProgressAndLogsSentFromTheBlockingThreadBeforeTheResponse(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).blockingTool(Tool.builder("report").build(), (args, ctx) -> {
      ctx.progress(1, 2.0, "half");
      ctx.log(LoggingLevel.INFO, "worker", "busy");
      ctx.progress(2, 2.0, "all");
      return ToolResult.text("done");
    }).tool(Tool.builder("own-thread").build(), (args, ctx) -> vertx.executeBlocking(() -> {
      ctx.progress(1, null, null);
      return ToolResult.text("done");
    }));
    JsonObject report = call("report").put("_meta", new JsonObject().put("progressToken", "p"));
    JsonObject own = call("own-thread").put("_meta", new JsonObject().put("progressToken", "q"));
    open(vertx, server, "2025-11-25").compose(client -> client.call("tools/call", report).compose(result -> {
      assertEquals(2, client.notifications("notifications/progress").size());
      assertEquals("busy", client.notifications("notifications/message").get(0).getJsonObject("params")
          .getString("data"));
      return client.call("tools/call", own);
    }).map(result -> {
      assertEquals(3, client.notifications("notifications/progress").size());
      assertNoViolations(client);
      return result;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void letsABlockingToolWaitForAnElicitation(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).blockingTool(Tool.builder("ask").build(), (args, ctx) -> {
      String name = ctx.elicit(ElicitRequest.form("Name?", stringProperties("name")))
          .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).content().getString("name");
      return ToolResult.text("Hello, " + name);
    });
    JsonObject caps = new JsonObject().put("elicitation", new JsonObject());
    open(vertx, server, "2025-06-18", caps).compose(client -> {
      client.onRequest("elicitation/create", p -> Future.succeededFuture(new JsonObject().put("action", "accept")
          .put("content", new JsonObject().put("name", "Grace"))));
      return client.call("tools/call", call("ask")).map(result -> {
        assertEquals("Hello, Grace", firstContent(result).getString("text"));
        assertNoViolations(client);
        return result;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @EnumSource(BlockingExecution.class)
  void mapsWhatABlockingToolThrows(BlockingExecution mode, Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx, new McpServerOptions().setBlockingExecution(mode))
        .blockingTool(Tool.builder("checked").build(), (args, ctx) -> {
          throw new java.io.IOException("/etc/secret unreadable");
        })
        .blockingTool(Tool.builder("mcp").build(), (args, ctx) -> {
          throw new McpException(-32052, "Not allowed");
        });
    open(vertx, server, "2025-11-25").compose(client -> client.request("tools/call", call("checked"))
        .compose(response -> {
          JsonObject error = assertError(response, -32603);
          assertFalse(error.encode().contains("secret"), error.encode());
          return client.request("tools/call", call("mcp"));
        }).map(response -> {
          assertEquals("Not allowed", assertError(response, -32052).getString("message"));
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }
}
