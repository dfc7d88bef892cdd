package io.mcpvertx.examples.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.ContextInitializer;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.McpSession;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.cluster.InstanceOptions;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.spi.leases.memory.InMemoryLeaseStore;
import io.mcpvertx.tracing.McpTracing;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The logging configuration the examples ship, switched to JSON (MCP_LOG_FORMAT=JSON): every line written on
 * standard error is one JSON object, and a line a tool writes while it serves a request carries the MDC (instance,
 * session, request, trace and span ids, the principal's subject), which is gone again once the request is handled.
 */
@ExtendWith(VertxExtension.class)
class JsonLogLinesTest {

  private static final Logger TOOL_LOG = LoggerFactory.getLogger("io.mcpvertx.examples.tool");

  private final ByteArrayOutputStream written = new ByteArrayOutputStream();
  private PrintStream stderr;

  @BeforeEach
  void shippedConfigurationInJson() throws Exception {
    stderr = System.err;
    System.setErr(new PrintStream(written, true, StandardCharsets.UTF_8));
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    context.putProperty("MCP_LOG_FORMAT", "JSON");
    JoranConfigurator joran = new JoranConfigurator();
    joran.setContext(context);
    joran.doConfigure(JsonLogLinesTest.class.getResource("/logback.xml"));
  }

  @AfterEach
  void testConfigurationAgain() throws Exception {
    System.setErr(stderr);
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    new ContextInitializer(context).autoConfig();
  }

  /**
   * Logback's lines, each parsed as JSON (a line that does not parse fails the test). Anything else in this JVM that
   * prints to standard error directly (an earlier test's JVM-wide handler, say) is no log line and is left out.
   */
  private List<JsonObject> lines() {
    return written.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("{")).map(JsonObject::new)
        .toList();
  }

  private static JsonObject line(List<JsonObject> lines, String message) {
    return lines.stream().filter(l -> message.equals(l.getString("message"))).findFirst()
        .orElseThrow(() -> new AssertionError("no line '" + message + "' in " + lines));
  }

  @Test
  void aLineWrittenWhileARequestIsServedCarriesItsContextAsJson(Vertx vertx, VertxTestContext test) {
    McpInstance instance = McpInstance.create(vertx, InMemoryLeaseStore.create(), new InstanceOptions());
    // A processor, or the SDK makes no spans at all; they are dropped: the trace ids in the lines are what counts.
    SpanExporter dropped = new SpanExporter() {
      @Override
      public CompletableResultCode export(Collection<SpanData> spans) {
        return CompletableResultCode.ofSuccess();
      }

      @Override
      public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
      }

      @Override
      public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
      }
    };
    OpenTelemetrySdk otel = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(dropped)).build())
        .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance())).build();
    McpServer server = McpServer.create(vertx, new McpServerOptions(), McpStores.builder(vertx).build(), instance)
        .tracer(McpTracing.tracer(otel));
    server.tool(Tool.builder("note").build(), (args, ctx) -> {
      TOOL_LOG.info("the tool ran");
      return Future.succeededFuture(ToolResult.text("noted"));
    });
    Principal alice = new Principal("https://issuer.example", "alice", Set.of());
    Context context = vertx.getOrCreateContext();
    Promise<JsonRpcMessage> answered = Promise.promise();
    instance.start().compose(v -> {
      context.runOnContext(x -> {
        McpSession session = server.createSession("session-1", message -> {
          if (message instanceof JsonRpcResponse r && r.id().equals(JsonRpcId.of(2))) {
            answered.tryComplete(message);
          }
        }, alice);
        session.handle(new JsonRpcRequest(JsonRpcId.of(1), "initialize", new JsonObject()
            .put("protocolVersion", "2025-11-25").put("capabilities", new JsonObject())
            .put("clientInfo", new JsonObject().put("name", "t").put("version", "1"))), m -> { });
        session.handle(new JsonRpcNotification("notifications/initialized", null), m -> { });
        session.handle(new JsonRpcRequest(JsonRpcId.of(2), "tools/call", new JsonObject().put("name", "note")
            .put("arguments", new JsonObject().put("secret", "do-not-log"))), message -> {
              if (message instanceof JsonRpcResponse r && r.id().equals(JsonRpcId.of(2))) {
                answered.tryComplete(message);
              }
            });
      });
      return answered.future();
    }).compose(v -> Future.<Void>future(p -> context.runOnContext(x -> {
      TOOL_LOG.info("after the request");
      p.complete();
    }))).onComplete(test.succeeding(v -> test.verify(() -> {
      List<JsonObject> lines = lines();
      JsonObject during = line(lines, "the tool ran");
      JsonObject mdc = during.getJsonObject("mdc");
      assertNotNull(mdc, during::encode);
      assertEquals(instance.id(), mdc.getString("instance_id"));
      assertEquals("session-1", mdc.getString("session_id"));
      assertEquals("2", mdc.getString("request_id"));
      assertEquals("alice", mdc.getString("principal"));
      assertTrue(mdc.getString("trace_id", "").matches("[0-9a-f]{32}"), mdc::encode);
      assertTrue(mdc.getString("span_id", "").matches("[0-9a-f]{16}"), mdc::encode);
      assertEquals("INFO", during.getString("level"));
      assertEquals("io.mcpvertx.examples.tool", during.getString("loggerName"));
      assertFalse(written.toString(StandardCharsets.UTF_8).contains("do-not-log"), "no argument is logged");
      JsonObject after = line(lines, "after the request");
      JsonObject left = after.getJsonObject("mdc", new JsonObject());
      assertFalse(left.containsKey("session_id") || left.containsKey("request_id") || left.containsKey("trace_id"),
          () -> "the request's context stayed on the event loop: " + after.encode());
      otel.close();
      instance.close();
      test.completeNow();
    })));
  }
}
