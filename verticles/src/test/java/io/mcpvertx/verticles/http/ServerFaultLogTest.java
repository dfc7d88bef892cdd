package io.mcpvertx.verticles.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.testing.LogCapture;
import io.mcpvertx.testing.StatelessTestClient;
import io.mcpvertx.verticles.stdio.StdioServer;
import io.mcpvertx.verticles.stdio.StdioServerOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A server fault (a handler that throws) is the opposite of a client's mistake: answered -32603 without the
 * details, and logged with its stack trace, exactly once, whichever transport and generation carried the request.
 */
@ExtendWith(VertxExtension.class)
class ServerFaultLogTest {

  private static final String V11 = "2025-11-25";

  /** What the failing handler throws: one instance per test, so the log records can be matched to it. */
  private final IllegalStateException fault = new IllegalStateException("the handler broke");
  /** What is logged, from every logger, while a test runs. */
  private LogCapture logs;

  @BeforeEach
  void catchTraces() {
    logs = LogCapture.start();
  }

  @AfterEach
  void releaseTraces() {
    logs.close();
  }

  private void broken(McpServer server) {
    server.tool(Tool.builder("broken").build(), (args, ctx) -> {
      throw fault;
    });
  }

  private void assertLoggedOnce() {
    assertEquals(1, logs.traces().stream().filter(r -> r.thrown() == fault).count(),
        () -> "records with the fault's trace: " + logs.traces().stream().map(r -> r.logger() + ": "
            + r.message()).toList());
  }

  @Test
  void logsAFaultOnceOverHttpWithASession(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> {
      broken(server.mcp);
      return server.client().initialize(V11);
    }).compose(session -> session.post(session.toolCall("broken", new JsonObject(), null)))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertEquals(JsonRpcErrorCodes.INTERNAL_ERROR, reply.messages().get(0).getJsonObject("error")
              .getInteger("code"), reply::toString);
          assertLoggedOnce();
          test.completeNow();
        })));
  }

  @Test
  void logsAFaultOnceOverHttpStateless(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> {
      broken(server.mcp);
      return StatelessTestClient.over(vertx, server.client().stateless())
          .request("tools/call", new JsonObject().put("name", "broken").put("arguments", new JsonObject())).send();
    }).onComplete(test.succeeding(exchange -> test.verify(() -> {
      exchange.assertError(JsonRpcErrorCodes.INTERNAL_ERROR);
      assertLoggedOnce();
      test.completeNow();
    })));
  }

  @Test
  void logsAFaultOnceOverStdio(Vertx vertx, VertxTestContext test) {
    McpServer mcp = McpServer.create(vertx);
    broken(mcp);
    String call = new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/call")
        .put("params", new JsonObject().put("name", "broken").put("arguments", new JsonObject())
            .put("_meta", StatelessTestClient.meta(StatelessTestClient.ALL_CAPABILITIES))).encode() + "\n";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    StdioServer.create(vertx, mcp, new StdioServerOptions().setRedirectSystemOut(false))
        .serve(new ByteArrayInputStream(call.getBytes(StandardCharsets.UTF_8)), out)
        .onComplete(test.succeeding(v -> test.verify(() -> {
          JsonObject answer = new JsonObject(out.toString(StandardCharsets.UTF_8).trim());
          assertEquals(JsonRpcErrorCodes.INTERNAL_ERROR, answer.getJsonObject("error").getInteger("code"),
              answer::encode);
          assertLoggedOnce();
          test.completeNow();
        })));
  }
}
