package io.mcpvertx.benchmarks;

import io.mcpvertx.metrics.McpMetrics;
import io.mcpvertx.metrics.McpMetricsOptions;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.server.ServerInfo;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.server.tracing.McpTracer;
import io.mcpvertx.tracing.McpTracing;
import io.mcpvertx.verticles.http.McpHttpServer;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.http.ResponseMode;
import io.opentelemetry.api.OpenTelemetry;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.micrometer.MetricsDomain;
import io.vertx.micrometer.MicrometerMetricsOptions;
import java.util.Arrays;
import org.openjdk.jmh.Main;

/**
 * The servers the load benchmark drives, one per JVM:
 * {@code java -jar mcp-vertx-benchmarks.jar echo|web|mcp [--port 8080] [--instances N] [--event-loops N]
 * [--host 127.0.0.1] [--metrics [--metrics-port 9464]]}; and
 * the in-JVM micro-benchmarks, {@code java -jar mcp-vertx-benchmarks.jar jmh [JMH options]} ({@link CodecBenchmark},
 * {@link SessionBenchmark}, {@link EventStoreBenchmark}); and task lifecycles against a private Redis,
 * {@code java -jar mcp-vertx-benchmarks.jar tasks [options]} ({@link TaskLifecycleBench}).
 *
 * <ul>
 *   <li>{@code echo}: the baseline. Bare Vert.x core: {@code instances} HTTP server verticles sharing the port, each
 *       answering a POST with its body ({@code application/json}). No router, no JSON parsing.</li>
 *   <li>{@code web}: the same echo behind a vertx-web {@link Router} with a {@link BodyHandler}, as the MCP endpoint
 *       has, to tell the cost of vertx-web apart from the cost of MCP.</li>
 *   <li>{@code mcp}: an {@link McpServer} with one tool, {@code echo}, which returns its {@code text} argument as a
 *       text block; served by {@link McpHttpServer} in {@link ResponseMode#JSON} with {@code instances} HTTP
 *       verticles.</li>
 * </ul>
 *
 * <p>{@code instances} defaults to the number of processors the JVM sees (so one under {@code taskset -c 1});
 * {@code event-loops} to Vert.x's default, twice that. With more event loops than HTTP verticles, a session
 * verticle usually lands on another event loop than the HTTP verticle that serves its requests. All three use the
 * same {@link HttpServerOptions} as the MCP endpoint (h2c allowed, HTTP/1.1 keep-alive).
 *
 * <p>{@code --metrics} turns the metrics module on, as a deployment would: Vert.x's own metrics, the server's
 * observer, and the Prometheus endpoint on {@code --metrics-port}; what it costs is what the peer
 * {@code mcp-vertx-metrics} of {@code benchmarks/peers.sh} measures.
 */
public final class BenchServer {

  private BenchServer() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("jmh")) {
      // The in-JVM micro-benchmarks: java -jar mcp-vertx-benchmarks.jar jmh [JMH options]
      Main.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length > 0 && args[0].equals("tasks")) {
      // Task lifecycles against a private Redis: java -jar mcp-vertx-benchmarks.jar tasks [options]
      TaskLifecycleBench.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length > 0 && args[0].equals("tasks-cluster")) {
      // Task lifecycles on a private Redis Cluster, 1 master against 3: ... tasks-cluster [options]
      ClusterLifecycleBench.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length > 0 && args[0].equals("replay")) {
      // Last-Event-ID replays against a private Redis: java -jar mcp-vertx-benchmarks.jar replay [options]
      ReplayBench.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length > 0 && args[0].equals("sessions")) {
      // Whole sessions against any 2025 server: java -jar mcp-vertx-benchmarks.jar sessions churn|idle [options]
      SessionLoad.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length > 0 && args[0].equals("hop")) {
      // The cost of a non-owner hop in a cluster: java -jar mcp-vertx-benchmarks.jar hop --owner URL --other URL
      HopLatency.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    String mode = null;
    String host = "127.0.0.1";
    int port = 8080;
    int instances = Runtime.getRuntime().availableProcessors();
    int eventLoops = 0;
    ResponseMode response = ResponseMode.JSON;
    McpMetricsOptions metrics = null;
    int metricsPort = McpMetricsOptions.DEFAULT_PORT;
    boolean noVertxMetrics = false;
    boolean noVertxHttpMetrics = false;
    boolean tracing = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--metrics" -> metrics = new McpMetricsOptions();
        case "--metrics-port" -> metricsPort = Integer.parseInt(args[++i]);
        // Without Vert.x's own metrics: what the server's observer and the stores cost on their own.
        case "--no-vertx-metrics" -> noVertxMetrics = true;
        // Vert.x's metrics without its per-request HTTP and TCP server ones: what those cost.
        case "--no-vertx-http-metrics" -> noVertxHttpMetrics = true;
        case "--tracing" -> tracing = true;
        case "--response" -> response = ResponseMode.valueOf(args[++i].toUpperCase(java.util.Locale.ROOT));
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--instances" -> instances = Integer.parseInt(args[++i]);
        case "--host" -> host = args[++i];
        case "--event-loops" -> eventLoops = Integer.parseInt(args[++i]);
        default -> mode = args[i];
      }
    }
    // "stateless" is the same MCP server: the load generator speaks 2026-07-28 to it instead of using a session.
    if ("stateless".equals(mode)) {
      mode = "mcp";
    }
    if (mode == null || !(mode.equals("echo") || mode.equals("web") || mode.equals("mcp"))) {
      System.err.println("usage: BenchServer echo|web|mcp [--port 8080] [--instances N] [--event-loops N]"
          + " [--response json|sse|auto] [--tracing]"
          + " [--host 127.0.0.1] [--metrics [--metrics-port 9464]]\n"
          + "       BenchServer jmh [JMH options]\n"
          + "       BenchServer tasks [options]");
      System.exit(2);
    }
    start(mode, host, port, instances, eventLoops, response,
        metrics == null ? null : McpMetrics.create(metrics.setHost(host).setPort(metricsPort)
            .setVertxMetrics(!noVertxMetrics)), noVertxHttpMetrics, tracing);
  }

  private static void start(String mode, String host, int port, int instances, int eventLoops,
      ResponseMode response, McpMetrics metrics, boolean noVertxHttpMetrics, boolean tracing) {
    VertxOptions vertxOptions = new VertxOptions();
    if (eventLoops > 0) {
      vertxOptions.setEventLoopPoolSize(eventLoops);
    }
    VertxOptions measured = metrics == null ? vertxOptions : metrics.vertxOptions(vertxOptions);
    if (noVertxHttpMetrics && measured.getMetricsOptions() instanceof MicrometerMetricsOptions micrometer) {
      micrometer.addDisabledMetricsCategory(MetricsDomain.HTTP_SERVER)
          .addDisabledMetricsCategory(MetricsDomain.NET_SERVER);
    }
    // --tracing: OpenTelemetry configured from OTEL_* (the cost of tracing with OTEL_TRACES_SAMPLER=always_off).
    OpenTelemetry otel = tracing ? McpTracing.autoConfigured() : null;
    VertxBuilder builder = Vertx.builder().with(measured);
    if (metrics != null) {
      builder.withMetrics(metrics.vertxMetricsFactory());
    }
    if (otel != null) {
      builder.withTracer(McpTracing.vertxTracer(otel));
    }
    Vertx vertx = builder.build();
    McpTracer tracer = otel == null ? McpTracer.NONE : McpTracing.tracer(otel);
    Future<Integer> listening = mode.equals("mcp") ? startMcp(vertx, host, port, instances, response, metrics, tracer)
        : vertx.deployVerticle(() -> new EchoVerticle(host, port, mode.equals("web")),
            new DeploymentOptions().setInstances(instances)).map(id -> port);
    listening
        .onSuccess(actual -> System.err.println("BenchServer " + mode + " listening on http://" + host + ":" + actual
            + "/mcp with " + instances + " HTTP verticle instance(s), " + vertxOptions.getEventLoopPoolSize()
            + " event loop(s), " + Runtime.getRuntime().availableProcessors() + " processor(s) visible"))
        .onFailure(e -> {
          System.err.println("Could not start: " + e);
          vertx.close().onComplete(v -> System.exit(1));
        });
  }

  /** The MCP server under test: one trivial tool. */
  public static McpServer echoToolServer(Vertx vertx) {
    return echoToolServer(vertx, McpStores.inMemory(vertx));
  }

  private static McpServer echoToolServer(Vertx vertx, McpStores stores) {
    return McpServer.create(vertx, new McpServerOptions().setServerInfo(ServerInfo.of("bench", "1.0.0")), stores)
        .tool(echoTool(), (arguments, ctx) -> Future.succeededFuture(ToolResult.text(arguments.getString("text"))));
  }

  /** {@code echo(text: string)}, with the input schema a real tool would declare (validated on every call). */
  public static Tool echoTool() {
    return Tool.builder("echo")
        .description("Returns its text argument")
        .inputSchema(new JsonObject()
            .put("type", "object")
            .put("properties", new JsonObject().put("text", new JsonObject().put("type", "string")))
            .put("required", new JsonArray().add("text")))
        .build();
  }

  private static Future<Integer> startMcp(Vertx vertx, String host, int port, int instances,
      ResponseMode response, McpMetrics metrics, McpTracer tracer) {
    // One load generator on one address drives every session and stream: the per-client and connection caps,
    // meant for many clients, are raised; the session limit too, so that the memory benchmark's 10,000 idle
    // sessions fit beside the few a warm-up leaves behind.
    int sessions = 2 * McpHttpServerOptions.DEFAULT_MAX_SESSIONS;
    McpHttpServerOptions options = new McpHttpServerOptions()
        .setHost(host)
        .setPort(port)
        .setResponseMode(response)
        .setMaxSessions(sessions)
        .setMaxSessionsPerClient(sessions)
        .setMaxConnections(2 * sessions);
    if (metrics == null) {
      return McpHttpServer.create(vertx, echoToolServer(vertx).tracer(tracer), options).listen(instances)
          .map(McpHttpServer::actualPort);
    }
    McpServer server = echoToolServer(vertx, metrics.meter(McpStores.inMemory(vertx))).tracer(tracer);
    metrics.bind(server);
    return metrics.serve(vertx)
        .compose(endpoint -> McpHttpServer.create(vertx, server, options).listen(instances))
        .map(McpHttpServer::actualPort);
  }

  /** Answers every POST with its own body. */
  static final class EchoVerticle extends VerticleBase {

    private final String host;
    private final int port;
    private final boolean web;

    EchoVerticle(String host, int port, boolean web) {
      this.host = host;
      this.port = port;
      this.web = web;
    }

    @Override
    public Future<?> start() {
      Handler<HttpServerRequest> handler;
      if (web) {
        Router router = Router.router(vertx);
        router.post("/mcp").handler(BodyHandler.create(false).setBodyLimit(4 * 1024 * 1024)).handler(rc ->
            rc.response().putHeader("Content-Type", "application/json").end(rc.body().buffer()));
        handler = router;
      } else {
        handler = request -> {
          if (request.method() != HttpMethod.POST) {
            request.response().setStatusCode(405).end();
            return;
          }
          request.body()
              .onSuccess(body -> request.response().putHeader("Content-Type", "application/json").end(body))
              .onFailure(e -> request.response().setStatusCode(400).end());
        };
      }
      return vertx.createHttpServer(new HttpServerOptions()
              .setHost(host)
              .setPort(port)
              .setHttp2ClearTextEnabled(true))
          .requestHandler(handler)
          .listen();
    }
  }
}
