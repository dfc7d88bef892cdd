package io.mcpvertx.server;

import static io.mcpvertx.server.McpTesting.assertNoViolations;
import static io.mcpvertx.server.McpTesting.open;
import static io.mcpvertx.server.McpTesting.stringProperties;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** notifications/cancelled from the client: the handler hears of it and no response follows. */
@ExtendWith(VertxExtension.class)
class CancellationTest {

  /** A tool that waits until the test finishes it, remembering its context and the reasons it was cancelled. */
  private static final class SlowTool {
    final Promise<ToolResult> result = Promise.promise();
    final Promise<RequestContext> started = Promise.promise();
    final Promise<String> cancelled = Promise.promise();

    McpServer server(Vertx vertx) {
      return McpServer.create(vertx).tool(Tool.builder("slow").build(), (args, ctx) -> {
        ctx.onCancel(cancelled::tryComplete);
        started.tryComplete(ctx);
        return result.future();
      }).tool(Tool.builder("fast").build(), (args, ctx) -> Future.succeededFuture(ToolResult.text("done")));
    }
  }

  private static JsonObject cancel(Object requestId, String reason) {
    JsonObject params = new JsonObject().put("requestId", requestId);
    return reason == null ? params : params.put("reason", reason);
  }

  private static JsonObject slowCall() {
    return new JsonObject().put("name", "slow");
  }

  @Test
  void tellsTheHandlerWithTheReasonAndSendsNoResponse(Vertx vertx, VertxTestContext test) {
    SlowTool slow = new SlowTool();
    open(vertx, slow.server(vertx), "2025-11-25").compose(client -> {
      long id = client.nextRequestId();
      Future<JsonObject> call = client.request("tools/call", slowCall());
      return slow.started.future().compose(ctx -> {
        assertFalse(ctx.isCancelled());
        client.notify("notifications/cancelled", cancel(id, "user pressed stop"));
        return slow.cancelled.future().map(reason -> {
          assertEquals("user pressed stop", reason);
          assertTrue(ctx.isCancelled());
          return ctx;
        });
      }).compose(ctx -> {
        assertEquals(0, client.session().inFlightRequests());
        slow.result.complete(ToolResult.text("too late"));
        return client.call("ping", null);
      }).map(pong -> {
        assertFalse(call.isComplete(), "a cancelled request must get no response");
        assertTrue(client.unmatched().isEmpty(), client.unmatched().toString());
        assertNoViolations(client);
        return pong;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void givesTheReasonToAHandlerRegisteredAfterTheCancellation(Vertx vertx, VertxTestContext test) {
    SlowTool slow = new SlowTool();
    open(vertx, slow.server(vertx), "2025-11-25").compose(client -> {
      long id = client.nextRequestId();
      client.request("tools/call", slowCall());
      return slow.started.future().compose(ctx -> {
        client.notify("notifications/cancelled", cancel(id, "too slow"));
        return client.call("ping", null).compose(pong -> {
          Promise<String> late = Promise.promise();
          ctx.onCancel(late::complete);
          return late.future();
        });
      }).map(reason -> {
        assertEquals("too slow", reason);
        assertNoViolations(client);
        return reason;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void cancelsARequestWithAStringId(Vertx vertx, VertxTestContext test) {
    SlowTool slow = new SlowTool();
    open(vertx, slow.server(vertx), "2025-11-25").compose(client -> {
      client.send(new JsonObject().put("jsonrpc", "2.0").put("id", "call-1").put("method", "tools/call")
          .put("params", slowCall()).toBuffer());
      return slow.started.future().compose(ctx -> {
        client.notify("notifications/cancelled", cancel("call-1", null));
        return slow.cancelled.future();
      }).compose(reason -> {
        slow.result.complete(ToolResult.text("too late"));
        return client.call("ping", null);
      }).map(pong -> {
        assertTrue(client.unmatched().isEmpty(), client.unmatched().toString());
        assertNoViolations(client);
        return pong;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void ignoresCancellationsOfUnknownOrFinishedRequests(Vertx vertx, VertxTestContext test) {
    SlowTool slow = new SlowTool();
    open(vertx, slow.server(vertx), "2025-11-25").compose(client -> {
      long finished = client.nextRequestId();
      return client.call("tools/call", new JsonObject().put("name", "fast")).compose(done -> {
        client.notify("notifications/cancelled", cancel(finished, "late"));
        client.notify("notifications/cancelled", cancel(9999, null));
        client.notify("notifications/cancelled", cancel("unknown", null));
        client.notify("notifications/cancelled", new JsonObject());
        client.notify("notifications/cancelled", null);
        return client.call("tools/call", new JsonObject().put("name", "fast"));
      }).map(result -> {
        assertEquals("done", result.getJsonArray("content").getJsonObject(0).getString("text"));
        assertTrue(client.unmatched().isEmpty(), client.unmatched().toString());
        assertTrue(client.notifications().isEmpty(), client.notifications().toString());
        assertNoViolations(client);
        return result;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void ignoresACancellationWhoseIdIsNotAnInteger(Vertx vertx, VertxTestContext test) {
    SlowTool slow = new SlowTool();
    open(vertx, slow.server(vertx), "2025-11-25").compose(client -> {
      long id = client.nextRequestId();
      Future<JsonObject> call = client.request("tools/call", slowCall());
      return slow.started.future().compose(ctx -> {
        client.notify("notifications/cancelled", cancel(id + 0.5, null));
        client.notify("notifications/cancelled", cancel(String.valueOf(id), null));
        return client.call("ping", null).map(pong -> ctx);
      }).compose(ctx -> {
        assertFalse(ctx.isCancelled());
        slow.result.complete(ToolResult.text("finished"));
        return call;
      }).map(response -> {
        assertTrue(response.containsKey("result"), response.encode());
        assertNoViolations(client);
        return response;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void leavesOtherRequestsRunning(Vertx vertx, VertxTestContext test) {
    List<Promise<ToolResult>> results = new ArrayList<>();
    Promise<Void> bothStarted = Promise.promise();
    McpServer server = McpServer.create(vertx).tool(Tool.builder("slow").build(), (args, ctx) -> {
      Promise<ToolResult> result = Promise.promise();
      results.add(result);
      if (results.size() == 2) {
        bothStarted.complete();
      }
      return result.future();
    });
    open(vertx, server, "2025-11-25").compose(client -> {
      long first = client.nextRequestId();
      Future<JsonObject> cancelled = client.request("tools/call", slowCall());
      Future<JsonObject> kept = client.request("tools/call", slowCall());
      return bothStarted.future().compose(v -> {
        client.notify("notifications/cancelled", cancel(first, null));
        return client.call("ping", null);
      }).compose(pong -> {
        results.forEach(r -> r.complete(ToolResult.text("finished")));
        return kept;
      }).map(response -> {
        assertTrue(response.containsKey("result"));
        assertFalse(cancelled.isComplete());
        assertNoViolations(client);
        return response;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void letsABlockingHandlerSeeTheCancellationOnItsOwnThread(Vertx vertx, VertxTestContext test) {
    Promise<Void> started = Promise.promise();
    Promise<String> seen = Promise.promise();
    McpServer server = McpServer.create(vertx).blockingTool(Tool.builder("poll").build(), (args, ctx) -> {
      CountDownLatch cancelled = new CountDownLatch(1);
      ctx.onCancel(reason -> cancelled.countDown());
      started.complete();
      // Bounded only so a broken build fails instead of hanging.
      boolean heard = cancelled.await(30, TimeUnit.SECONDS);
      seen.complete(heard + " " + ctx.isCancelled() + " " + Context.isOnEventLoopThread());
      return ToolResult.text("ignored");
    });
    open(vertx, server, "2025-11-25").compose(client -> {
      long id = client.nextRequestId();
      client.request("tools/call", new JsonObject().put("name", "poll"));
      return started.future().compose(v -> {
        client.notify("notifications/cancelled", cancel(id, "stop"));
        return seen.future();
      }).map(facts -> {
        assertEquals("true true false", facts);
        assertNoViolations(client);
        return facts;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void refusesServerRequestsFromACancelledRequest(Vertx vertx, VertxTestContext test) {
    SlowTool slow = new SlowTool();
    JsonObject caps = new JsonObject().put("elicitation", new JsonObject());
    open(vertx, slow.server(vertx), "2025-11-25", caps).compose(client -> {
      long id = client.nextRequestId();
      client.request("tools/call", slowCall());
      return slow.started.future().compose(ctx -> {
        client.notify("notifications/cancelled", cancel(id, null));
        return slow.cancelled.future().compose(reason ->
            ctx.elicit(ElicitRequest.form("Still there?", stringProperties("answer"))));
      }).<Throwable>transform(ar -> Future.succeededFuture(ar.cause())).map(failure -> {
        assertEquals(-32007, assertInstanceOf(McpException.class, failure).code());
        assertTrue(client.serverRequests().isEmpty());
        assertNoViolations(client);
        return failure;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void cancelsRequestsInFlightWhenTheSessionCloses(Vertx vertx, VertxTestContext test) {
    SlowTool slow = new SlowTool();
    open(vertx, slow.server(vertx), "2025-11-25").compose(client -> {
      client.request("tools/call", slowCall());
      return slow.started.future().compose(ctx -> closeAndAwait(client, slow.cancelled.future()))
          .map(reason -> {
            assertTrue(slow.started.future().result().isCancelled());
            assertNoViolations(client);
            return reason;
          });
    }).onComplete(test.succeedingThenComplete());
  }

  private static <T> Future<T> closeAndAwait(McpTestClient client, Future<T> future) {
    return client.close().compose(v -> future);
  }
}
