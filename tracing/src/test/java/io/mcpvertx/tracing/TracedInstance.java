package io.mcpvertx.tracing;

import io.mcpvertx.cluster.McpCluster;
import io.mcpvertx.cluster.McpClusterOptions;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.cluster.InstanceOptions;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolExecution;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.spi.leases.LeaseStore;
import io.mcpvertx.verticles.http.McpHttpServer;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.api.baggage.propagation.W3CBaggagePropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * One traced member of a two-member cluster in this JVM: its own clustered Vert.x (embedded Hazelcast on
 * loopback), its own OpenTelemetry SDK exporting to its own in-memory exporter (so a test sees which instance made
 * which span), an MCP server on the shared stores and its HTTP transport.
 */
final class TracedInstance {

  final InMemorySpanExporter spans = InMemorySpanExporter.create();
  final OpenTelemetrySdk otel;
  Vertx vertx;
  McpInstance instance;
  McpServer server;
  McpHttpServer http;

  private TracedInstance() {
    otel = OpenTelemetrySdk.builder()
        .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
        .setPropagators(ContextPropagators.create(TextMapPropagator.composite(
            W3CTraceContextPropagator.getInstance(), W3CBaggagePropagator.getInstance())))
        .build();
  }

  static Future<TracedInstance> start(String name, McpClusterOptions cluster, McpStores shared,
      LeaseStore leases) {
    TracedInstance node = new TracedInstance();
    return McpCluster.start(cluster, McpTracing.vertxTracer(node.otel)).compose(vertx -> {
      node.vertx = vertx;
      node.instance = McpInstance.create(vertx, leases, new InstanceOptions().setName(name));
      McpStores stores = McpStores.builder(vertx).tasks(shared.tasks()).events(shared.events())
          .sessions(shared.sessions().orElseThrow()).leases(leases).build();
      node.server = McpServer.create(vertx, new McpServerOptions(), stores, node.instance)
          .tracer(McpTracing.tracer(node.otel));
      node.server.tool(Tool.builder("echo").build(), (args, ctx) ->
          Future.succeededFuture(ToolResult.text(args.getString("text", ""))));
      node.server.tool(Tool.builder("ask").build(), (args, ctx) ->
          ctx.elicit(ElicitRequest.form("Your name?", new JsonObject().put("type", "object")
                  .put("properties", new JsonObject().put("name", new JsonObject().put("type", "string")))))
              .map(answer -> ToolResult.text("hello")));
      // A task on either wire: its later steps' spans link to the span of the call that created it.
      node.server.tool(Tool.builder("later").execution(ToolExecution.task(TaskSupport.REQUIRED)).build(),
          (args, ctx) -> Future.succeededFuture(ToolResult.text("done")));
      node.http = McpHttpServer.create(vertx, node.server, new McpHttpServerOptions().setPort(0));
      return node.instance.start().compose(v -> node.http.listen()).map(v -> node);
    });
  }

  int port() {
    return http.actualPort();
  }

  List<io.opentelemetry.sdk.trace.data.SpanData> finished() {
    return spans.getFinishedSpanItems();
  }

  Future<Void> close() {
    return http.close().eventually(() -> instance.close()).eventually(() -> vertx.close())
        .eventually(() -> {
          otel.close();
          return Future.succeededFuture();
        });
  }
}
