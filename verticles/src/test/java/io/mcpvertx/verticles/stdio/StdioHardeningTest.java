package io.mcpvertx.verticles.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.LogCapture;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.event.Level;

/**
 * The stdio transport under a hostile or newer host: a host that stops reading our output stops us reading its
 * input (the heap does not fill with answers nobody reads), and a client pinned to 2026-07-28 is served as that
 * revision asks, each request complete in itself, with no {@code initialize}.
 */
@ExtendWith(VertxExtension.class)
class StdioHardeningTest {

  /** What is logged, from every logger, while a test runs. */
  private LogCapture logs;

  @BeforeEach
  void catchLogs() {
    logs = LogCapture.start();
  }

  @AfterEach
  void releaseLogs() {
    logs.close();
  }

  private static McpServer server(Vertx vertx) {
    return McpServer.create(vertx)
        .tool(Tool.builder("echo").inputSchema(new JsonObject().put("type", "object")
                .put("properties", new JsonObject().put("text", new JsonObject().put("type", "string")))).build(),
            (args, ctx) -> Future.succeededFuture(ToolResult.text(args.getString("text", ""))));
  }

  private static String modern(int id, String method, JsonObject params) {
    JsonObject withMeta = params.copy().put("_meta", StatelessTestClient.meta(StatelessTestClient.ALL_CAPABILITIES));
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method).put("params", withMeta)
        .encode() + "\n";
  }

  private static JsonObject lineWithId(StdioPipes pipes, int id) {
    return pipes.out.lines().stream().map(JsonObject::new).filter(m -> Integer.valueOf(id).equals(m.getValue("id")))
        .findFirst().orElse(null);
  }

  private static Future<Void> until(Vertx vertx, BooleanSupplier condition) {
    Promise<Void> done = Promise.promise();
    long timer = vertx.setPeriodic(10, t -> {
      if (condition.getAsBoolean()) {
        vertx.cancelTimer(t);
        done.tryComplete();
      }
    });
    return done.future().onComplete(ar -> vertx.cancelTimer(timer));
  }

  @Test
  void servesAClientPinnedTo20260728WithoutInitialize(Vertx vertx, VertxTestContext test) {
    StdioPipes pipes = new StdioPipes();
    Future<Void> served = StdioServer.create(vertx, server(vertx), new StdioServerOptions()
        .setRedirectSystemOut(false)).serve(pipes.in, pipes.out);
    pipes.in.write(modern(1, "server/discover", new JsonObject()));
    pipes.in.write(modern(2, "tools/call", new JsonObject().put("name", "echo")
        .put("arguments", new JsonObject().put("text", "hi"))));
    pipes.in.write(new JsonObject().put("jsonrpc", "2.0").put("id", 3).put("method", "tools/list")
        .put("params", new JsonObject().put("_meta", StatelessTestClient.meta(StatelessTestClient.ALL_CAPABILITIES)
            .put(StatelessTestClient.META_VERSION, "2099-01-01"))).encode() + "\n");
    until(vertx, () -> lineWithId(pipes, 1) != null && lineWithId(pipes, 2) != null && lineWithId(pipes, 3) != null)
        .onComplete(test.succeeding(v -> test.verify(() -> {
          JsonObject discover = lineWithId(pipes, 1).getJsonObject("result");
          assertNotNull(discover, () -> pipes.out.lines().toString());
          assertTrue(discover.getJsonArray("supportedVersions").contains(StatelessTestClient.VERSION),
              discover::encode);
          JsonObject call = lineWithId(pipes, 2).getJsonObject("result");
          assertEquals("hi", call.getJsonArray("content").getJsonObject(0).getString("text"), call::encode);
          // An unknown revision: -32022 with the versions supported, so the client can fall back.
          assertEquals(-32022, lineWithId(pipes, 3).getJsonObject("error").getInteger("code"));
          pipes.in.end();
          served.onComplete(test.succeedingThenComplete());
        })));
  }

  /** An output the host does not read until the test opens the gate. */
  private static final class StalledOutput extends OutputStream {
    final CountDownLatch gate = new CountDownLatch(1);
    final CountDownLatch blocked = new CountDownLatch(1);
    final StdioPipes.LineOutput lines;

    StalledOutput(StdioPipes.LineOutput lines) {
      this.lines = lines;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      blocked.countDown();
      try {
        gate.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
      lines.write(bytes, offset, length);
    }
  }

  @Test
  void stopsReadingInputWhileTheHostDoesNotReadTheOutput(Vertx vertx, VertxTestContext test) {
    StdioPipes pipes = new StdioPipes();
    StalledOutput out = new StalledOutput(pipes.out);
    Future<Void> served = StdioServer.create(vertx, server(vertx), new StdioServerOptions()
        .setRedirectSystemOut(false).setMaxOutputQueueBytes(16 * 1024)).serve(pipes.in, out);
    String big = "x".repeat(64 * 1024);
    pipes.in.write(modern(1, "tools/call", new JsonObject().put("name", "echo")
        .put("arguments", new JsonObject().put("text", big))));
    // The answer (over the limit) waits for the host; the next chunk read, the reader says so and stops reading.
    until(vertx, () -> out.blocked.getCount() == 0)
        .compose(v -> {
          pipes.in.write(modern(2, "tools/call", new JsonObject().put("name", "echo")
              .put("arguments", new JsonObject().put("text", "small 2"))));
          return until(vertx, () -> logs.lines().stream().anyMatch(r -> r.level() == Level.WARN
              && r.message().contains("not being read")));
        })
        .compose(v -> {
          for (int id = 3; id <= 7; id++) {
            pipes.in.write(modern(id, "tools/call", new JsonObject().put("name", "echo")
                .put("arguments", new JsonObject().put("text", "small " + id))));
          }
          Promise<Void> later = Promise.promise();
          vertx.setTimer(300, t -> later.complete());
          return later.future();
        })
        .compose(v -> {
          // None of the five lines may have been read; the reader may have stopped a chunk earlier still (the
          // warning and the pause race with the chunk of line 2), which leaves six.
          int unread = pipes.in.unread();
          test.verify(() -> assertTrue(unread >= 5, "the reader went on reading: " + unread + " chunks unread"));
          out.gate.countDown();
          return until(vertx, () -> lineWithId(pipes, 7) != null);
        })
        .onComplete(test.succeeding(v -> test.verify(() -> {
          assertEquals(big, lineWithId(pipes, 1).getJsonObject("result").getJsonArray("content")
              .getJsonObject(0).getString("text"));
          assertEquals(1, logs.lines().stream().filter(r -> r.message().contains("not being read")).count());
          pipes.in.end();
          served.onComplete(test.succeedingThenComplete());
        })));
  }
}
