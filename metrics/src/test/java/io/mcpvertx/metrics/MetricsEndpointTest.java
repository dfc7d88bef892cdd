package io.mcpvertx.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.testing.http.StreamableHttpSession;
import io.mcpvertx.verticles.http.McpHttpServer;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxTestContext;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A server with metrics on, driven over HTTP, its {@code /metrics} scraped and parsed. */
class MetricsEndpointTest {

  private McpMetrics metrics;
  private Vertx vertx;
  private McpHttpServer http;
  private int metricsPort;

  @BeforeEach
  void start() throws Exception {
    metrics = McpMetrics.create(new McpMetricsOptions().setHost("127.0.0.1").setPort(0));
    vertx = Vertx.builder().with(metrics.vertxOptions(new VertxOptions()))
        .withMetrics(metrics.vertxMetricsFactory()).build();
    McpStores stores = metrics.meter(McpStores.inMemory(vertx));
    McpServer server = McpServer.create(vertx, new McpServerOptions(), stores)
        .tool(Tool.builder("fine").build(), (args, ctx) -> Future.succeededFuture(ToolResult.text("ok")))
        .tool(Tool.builder("broken").build(), (args, ctx) -> Future.succeededFuture(ToolResult.error("no")));
    metrics.bind(server);
    http = McpHttpServer.create(vertx, server, new McpHttpServerOptions().setPort(0));
    http.listen().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    metricsPort = metrics.serve(vertx).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS)
        .actualPort();
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  private Future<PrometheusText> scrape() {
    return get("/metrics").map(response -> {
      assertEquals(200, response.statusCode());
      assertTrue(response.getHeader("Content-Type").startsWith("text/plain"));
      return PrometheusText.parse(response.body().result().toString());
    });
  }

  /** A GET of the metrics endpoint, its body read. */
  private Future<HttpClientResponse> get(String path) {
    // On a Vert.x context: composed from the test's thread, the body could be asked for after the response ended.
    Promise<HttpClientResponse> got = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> vertx.createHttpClient()
        .request(HttpMethod.GET, metricsPort, "127.0.0.1", path)
        .compose(request -> request.send())
        .compose(response -> response.body().map(body -> response))
        .onComplete(got));
    return got.future();
  }

  @Test
  void countsToolCallsByToolAndOutcomeAndTheSessionsAndHttpRequestsThatCarriedThem() throws Exception {
    VertxTestContext test = new VertxTestContext();
    StreamableHttp transport = StreamableHttp.http1(vertx, http.actualPort());
    McpTestClient client = transport.sessionClient(vertx);
    client.initialize("2025-11-25")
        .compose(init -> client.request("tools/call", new JsonObject().put("name", "fine")))
        .compose(r -> client.request("tools/call", new JsonObject().put("name", "fine")))
        .compose(r -> client.request("tools/call", new JsonObject().put("name", "broken")))
        .compose(r -> client.request("tools/call", new JsonObject().put("name", "user-typed-name-123")))
        .compose(r -> scrape())
        .onComplete(test.succeeding(text -> test.verify(() -> {
          String count = "mcp_server_operation_duration_seconds_count";
          assertEquals(2.0, text.value(count, Map.of("mcp_method_name", "tools/call", "gen_ai_tool_name", "fine",
              "error_type", "", "mcp_protocol_version", "2025-11-25")));
          assertEquals(1.0, text.value(count, Map.of("gen_ai_tool_name", "broken", "error_type", "tool_error")));
          // A name the server does not have is folded: what a client types never becomes a label.
          assertEquals(1.0, text.value(count, Map.of("gen_ai_tool_name", "_OTHER", "error_type", "-32602")));
          assertTrue(text.find(count, Map.of("gen_ai_tool_name", "user-typed-name-123")).isEmpty());
          // The conventions' buckets: 0.01 s up to 300 s.
          assertFalse(text.find("mcp_server_operation_duration_seconds_bucket",
              Map.of("gen_ai_tool_name", "fine", "le", "300.0")).isEmpty());
          assertEquals(1.0, text.value("mcp_server_sessions_active", Map.of()));
          assertEquals(1.0, text.value("mcp_server_sessions_initialized_total",
              Map.of("mcp_protocol_version", "2025-11-25")));
          // Vert.x's own HTTP server metrics, from the same registry.
          // Vert.x's HTTP server metrics (its names and labels), counted exactly: initialize and the four calls
          // answered 200, notifications/initialized 202, none of them still in progress.
          Map<String, String> ok = Map.of("method", "POST", "code", "200");
          assertEquals(5.0, text.value("vertx_http_server_requests_total", ok));
          assertEquals(1.0, text.value("vertx_http_server_requests_total", Map.of("method", "POST", "code", "202")));
          assertEquals(5.0, text.value("vertx_http_server_response_time_seconds_count", ok));
          assertEquals(5.0, text.value("vertx_http_server_response_bytes_count", ok));
          assertEquals(6.0, text.value("vertx_http_server_request_bytes_count", Map.of("method", "POST")));
          assertEquals(0.0, text.value("vertx_http_server_active_requests", Map.of("method", "POST")));
          assertTrue(text.value("vertx_http_server_active_connections", Map.of()) >= 1.0);
          assertTrue(text.value("vertx_http_server_bytes_read_total", Map.of()) > 0.0);
          assertTrue(text.value("vertx_http_server_bytes_written_total", Map.of()) > 0.0);
          assertTrue(text.has("jvm_memory_used_bytes"), "JVM metrics");
          test.completeNow();
        })));
    assertTrue(test.awaitCompletion(30, TimeUnit.SECONDS));
    if (test.failed()) {
      throw new AssertionError(test.causeOfFailure());
    }
  }

  @Test
  void countsStreamsWhileOpenAndSessionsUntilDeleted() throws Exception {
    StreamableHttp transport = StreamableHttp.http1(vertx, http.actualPort());
    StreamableHttpSession session = await(transport.initialize("2025-11-25"));
    await(session.listen());
    PrometheusText open = await(scrape());
    assertEquals(1.0, open.value("mcp_server_sse_streams_active", Map.of()));
    assertEquals(1.0, open.value("mcp_server_sessions_active", Map.of()));
    await(session.delete());
    // The stream ends as the session does; the gauge follows when the response is disposed.
    PrometheusText closed = await(scrape());
    for (int i = 0; i < 100 && closed.value("mcp_server_sse_streams_active", Map.of()) != 0.0; i++) {
      Thread.sleep(50);
      closed = await(scrape());
    }
    assertEquals(0.0, closed.value("mcp_server_sse_streams_active", Map.of()));
    assertEquals(0.0, closed.value("mcp_server_sessions_active", Map.of()));
    assertEquals(1.0, closed.value("mcp_server_session_duration_seconds_count",
        Map.of("mcp_protocol_version", "2025-11-25")));
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  @Test
  void answersOnlyItsPath() throws Exception {
    int status = get("/other").map(HttpClientResponse::statusCode).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    assertEquals(404, status);
  }
}
