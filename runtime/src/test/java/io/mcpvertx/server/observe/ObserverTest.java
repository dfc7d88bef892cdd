package io.mcpvertx.server.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class ObserverTest {

  /** Every event as one line: what a test can compare. */
  static final class Recorder implements McpObserver {
    final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void requestServed(String method, String tool, ProtocolVersion version, String errorType,
        long durationNanos) {
      assertTrue(durationNanos >= 0, "a duration is never negative");
      events.add("request " + method + " tool=" + tool + " version=" + (version == null ? null : version.id())
          + " error=" + errorType);
    }

    @Override
    public void sessionStarted(boolean restored) {
      events.add("session started restored=" + restored);
    }

    @Override
    public void sessionInitialized(ProtocolVersion version) {
      events.add("session initialized " + version.id());
    }

    @Override
    public void sessionClosed(ProtocolVersion version, long durationNanos) {
      events.add("session closed " + version.id());
    }
  }

  private static McpServer server(Vertx vertx) {
    return McpServer.create(vertx)
        .tool(Tool.builder("fine").build(), (args, ctx) -> Future.succeededFuture(ToolResult.text("ok")))
        .tool(Tool.builder("broken").build(), (args, ctx) -> Future.succeededFuture(ToolResult.error("no")));
  }

  @Test
  void reportsToolCallsByRegisteredToolAndOutcome(Vertx vertx, VertxTestContext test) {
    Recorder recorder = new Recorder();
    McpServer server = server(vertx).observer(recorder);
    McpTestClient.inProcess(vertx, server).compose(client -> client.initialize("2025-11-25")
        .compose(init -> client.request("tools/call", new JsonObject().put("name", "fine")))
        .compose(r -> client.request("tools/call", new JsonObject().put("name", "broken")))
        .compose(r -> client.request("tools/call", new JsonObject().put("name", "secret-user-input")))
        .compose(r -> client.request("no/such/method", new JsonObject()))
        .compose(r -> client.session().close()))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          assertEquals(List.of(
              "session started restored=false",
              "session initialized 2025-11-25",
              "request initialize tool=null version=2025-11-25 error=null",
              "request tools/call tool=fine version=2025-11-25 error=null",
              "request tools/call tool=broken version=2025-11-25 error=tool_error",
              "request tools/call tool=_OTHER version=2025-11-25 error=-32602",
              "request no/such/method tool=null version=2025-11-25 error=-32601",
              "session closed 2025-11-25"), recorder.events);
          test.completeNow();
        })));
  }

  @Test
  void reportsStatelessRequestsUnderTheirRevision(Vertx vertx, VertxTestContext test) {
    Recorder recorder = new Recorder();
    McpServer server = server(vertx).observer(recorder);
    JsonObject meta = new JsonObject().put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
        .put("io.modelcontextprotocol/clientInfo", new JsonObject().put("name", "t").put("version", "1"))
        .put("io.modelcontextprotocol/clientCapabilities", new JsonObject());
    vertx.runOnContext(v -> {
      var request = new io.mcpvertx.jsonrpc.JsonRpcRequest(io.mcpvertx.jsonrpc.JsonRpcId.of(1), "tools/call",
          new JsonObject().put("name", "broken").put("_meta", meta));
      server.stateless().serve(request, null, message -> { }).response()
          .onComplete(test.succeeding(answer -> test.verify(() -> {
            assertEquals(List.of("request tools/call tool=broken version=2026-07-28 error=tool_error"),
                recorder.events);
            test.completeNow();
          })));
    });
  }

  @Test
  void anUnobservedServerHasNoObserver(Vertx vertx) {
    McpServer server = server(vertx);
    assertTrue(server.observer().isEmpty());
    assertTrue(server.observer(new Recorder()).observer().isPresent());
    assertTrue(server.observer(null).observer().isEmpty());
  }
}
