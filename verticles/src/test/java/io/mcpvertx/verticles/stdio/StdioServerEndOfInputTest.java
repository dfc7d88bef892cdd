package io.mcpvertx.verticles.stdio;

import static io.mcpvertx.verticles.stdio.StdioServerTest.assertOnlyJsonLines;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class StdioServerEndOfInputTest {

  private static final StdioServerOptions OPTIONS = new StdioServerOptions().setRedirectSystemOut(false);

  private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
      + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
      + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";

  private static String call(int id, String tool) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\"}}\n";
  }

  /** The ids of the responses in the output. */
  private static Set<Object> answeredIds(StdioPipes.LineOutput out) {
    return out.lines().stream().map(JsonObject::new).filter(m -> !m.containsKey("method"))
        .map(m -> m.getValue("id")).map(id -> id instanceof Number n ? (Object) n.longValue() : id)
        .collect(Collectors.toSet());
  }

  private static McpServer server(Vertx vertx, Promise<Void> started, Future<Void> release) {
    return McpServer.create(vertx)
        .tool(Tool.builder("quick").build(), (args, ctx) -> Future.succeededFuture(ToolResult.text("quick")))
        .tool(Tool.builder("slow").build(), (args, ctx) -> {
          started.tryComplete();
          return release.map(v -> ToolResult.text("slow"));
        });
  }

  @Test
  void endOfInputWaitsForAnInFlightToolAndWritesItsResponseBeforeCompleting(Vertx vertx, VertxTestContext test) {
    Promise<Void> started = Promise.promise();
    Promise<Void> release = Promise.promise();
    StdioPipes pipes = new StdioPipes();
    Future<Void> served = StdioServer.create(vertx, server(vertx, started, release.future()), OPTIONS)
        .serve(pipes.in, pipes.out);
    pipes.in.write(INITIALIZE + call(2, "slow"));
    started.future()
        .compose(v -> {
          pipes.in.end();
          return pipes.in.endRead();
        })
        .compose(v -> {
          release.complete();
          return served;
        })
        .onComplete(test.succeeding(v -> test.verify(() -> {
          assertEquals(Set.of(1L, 2L), answeredIds(pipes.out));
          assertTrue(pipes.out.lines().get(pipes.out.lines().size() - 1).contains("\"slow\""));
          assertOnlyJsonLines(pipes.out);
          test.completeNow();
        })));
  }

  @Test
  void inputThatEndsAtOnceIsStillAnsweredInFull(Vertx vertx, VertxTestContext test) {
    String input = INITIALIZE + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n" + call(3, "quick")
        + call(4, "quick") + "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}\n";
    StdioPipes.LineOutput out = new StdioPipes.LineOutput();
    McpServer server = server(vertx, Promise.promise(), Future.succeededFuture());
    StdioServer.create(vertx, server, OPTIONS)
        .serve(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out)
        .onComplete(test.succeeding(v -> test.verify(() -> {
          assertEquals(Set.of(1L, 2L, 3L, 4L, 5L), answeredIds(out));
          assertOnlyJsonLines(out);
          test.completeNow();
        })));
  }

  @Test
  void anUnterminatedLastLineIsServed(Vertx vertx, VertxTestContext test) {
    String input = INITIALIZE + "{\"jsonrpc\":\"2.0\",\"id\":\"last\",\"method\":\"ping\"}";
    StdioPipes.LineOutput out = new StdioPipes.LineOutput();
    StdioServer.create(vertx, McpServer.create(vertx), OPTIONS)
        .serve(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out)
        .onComplete(test.succeeding(v -> test.verify(() -> {
          assertEquals(Set.of(1L, "last"), answeredIds(out));
          test.completeNow();
        })));
  }

  @Test
  void theDrainTimeoutBoundsTheWaitForAStuckTool(Vertx vertx, VertxTestContext test) {
    Promise<Void> started = Promise.promise();
    StdioPipes pipes = new StdioPipes();
    McpServer server = server(vertx, started, Promise.<Void>promise().future());
    Future<Void> served = StdioServer.create(vertx, server, new StdioServerOptions(OPTIONS).setDrainTimeoutMs(20))
        .serve(pipes.in, pipes.out);
    pipes.in.write(INITIALIZE + call(2, "slow"));
    started.future()
        .compose(v -> {
          pipes.in.end();
          return served;
        })
        .onComplete(test.succeeding(v -> test.verify(() -> {
          assertEquals(Set.of(1L), answeredIds(pipes.out));
          test.completeNow();
        })));
  }

  @Test
  void aZeroDrainTimeoutClosesAtOnce(Vertx vertx, VertxTestContext test) {
    Promise<Void> started = Promise.promise();
    StdioPipes pipes = new StdioPipes();
    McpServer server = server(vertx, started, Promise.<Void>promise().future());
    Future<Void> served = StdioServer.create(vertx, server, new StdioServerOptions(OPTIONS).setDrainTimeoutMs(0))
        .serve(pipes.in, pipes.out);
    pipes.in.write(INITIALIZE + call(2, "slow"));
    started.future()
        .compose(v -> {
          pipes.in.end();
          return served;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aClosedOutputNeitherStopsTheReaderNorServeFromCompleting(Vertx vertx, VertxTestContext test) {
    OutputStream closed = new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        throw new IOException("Broken pipe");
      }
    };
    String input = INITIALIZE + call(2, "quick") + call(3, "quick");
    StdioServer.create(vertx, server(vertx, Promise.promise(), Future.succeededFuture()), OPTIONS)
        .serve(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), closed)
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void emptyInputCompletesWithoutWritingAnything(Vertx vertx, VertxTestContext test) {
    StdioPipes.LineOutput out = new StdioPipes.LineOutput();
    StdioServer.create(vertx, McpServer.create(vertx), OPTIONS)
        .serve(new ByteArrayInputStream(new byte[0]), out)
        .onComplete(test.succeeding(v -> test.verify(() -> {
          assertEquals(List.of(), out.lines());
          assertEquals("", out.text());
          test.completeNow();
        })));
  }
}
