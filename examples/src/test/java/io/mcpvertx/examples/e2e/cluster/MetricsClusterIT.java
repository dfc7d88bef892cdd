package io.mcpvertx.examples.e2e.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.testing.FreePorts;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.http.StreamableHttp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three clustered instances of the conformance example with {@code --metrics} on, and a real Prometheus scraping
 * them: tool calls made on each instance add up, per tool, in one PromQL query over the three, and each instance
 * reports the three members it sees and the lease it holds.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MetricsClusterIT {

  private static final long BOUND_MS = 30_000;
  private static ClusterHarness cluster;
  private static Prometheus prometheus;
  private static Vertx vertx;
  private static int[] metricsPorts;

  @BeforeAll
  static void start() throws Exception {
    Prometheus.require();
    ClusterHarness.assumeLauncherClusters();
    metricsPorts = FreePorts.some(3);
    cluster = ClusterHarness.start(MetricsClusterIT.class, "conformance", 3, 0, List.of(),
        i -> List.of("--metrics", String.valueOf(metricsPorts[i])));
    List<String> targets = new ArrayList<>();
    for (int port : metricsPorts) {
      targets.add("127.0.0.1:" + port);
    }
    prometheus = Prometheus.start(cluster.dir().resolve("prometheus"), FreePorts.some(1)[0], targets);
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() throws Exception {
    if (vertx != null) {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
    if (prometheus != null) {
      prometheus.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(BOUND_MS, TimeUnit.MILLISECONDS);
  }

  /** {@code calls} calls of {@code tool} in one session opened directly on node {@code node}. */
  private static void call(int node, String tool, JsonObject arguments, int calls) throws Exception {
    StreamableHttp http = StreamableHttp.http1(vertx, cluster.nodePort(node));
    McpTestClient client = http.sessionClient(vertx);
    await(client.initialize("2025-11-25"));
    for (int i = 0; i < calls; i++) {
      await(client.request("tools/call", new JsonObject().put("name", tool).put("arguments", arguments)));
    }
    await(http.close());
  }

  @Test
  void prometheusAnswersToolCallsByToolSummedOverTheCluster() throws Exception {
    cluster.assumeClustered();
    JsonObject greeting = new JsonObject().put("name", "metrics");
    JsonObject schemaArgs = new JsonObject();
    // Node i greets i + 1 times: 6 in all, from three instances; one other tool twice, on one node only.
    for (int node = 0; node < 3; node++) {
      call(node, "greet", greeting, node + 1);
    }
    call(2, "json_schema_2020_12_tool", schemaArgs, 2);

    String byTool = "sum by (gen_ai_tool_name) (mcp_server_operation_duration_seconds_count"
        + "{job=\"mcp\", mcp_method_name=\"tools/call\"})";
    Map<String, Double> expected = Map.of("greet", 6.0, "json_schema_2020_12_tool", 2.0);
    Map<String, Double> seen = Map.of();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    // Prometheus scrapes every second: the sums reach the calls made within a few scrapes.
    while (System.nanoTime() < deadline) {
      seen = byLabel(prometheus.query(byTool), "gen_ai_tool_name");
      if (seen.equals(expected)) {
        break;
      }
      Thread.sleep(500);
    }
    assertEquals(expected, seen, () -> "PromQL " + byTool + "\n" + prometheus.output() + cluster.logs());

    // Every instance is scraped, sees the three members, and holds its lease.
    assertEquals(Map.of("mcp", 3.0), byLabel(prometheus.query("count by (job) (up{job=\"mcp\"} == 1)"), "job"));
    assertEquals(Map.of("", 3.0), byLabel(prometheus.query("min(mcp_cluster_members{job=\"mcp\"})"), "none"));
    assertEquals(Map.of("", 3.0), byLabel(prometheus.query("sum(mcp_instance_lease_live{job=\"mcp\"})"), "none"));
    // Each greet call is counted on the instance that served it.
    Map<String, Double> perInstance = byLabel(prometheus.query("sum by (instance) "
        + "(mcp_server_operation_duration_seconds_count{gen_ai_tool_name=\"greet\"})"), "instance");
    assertEquals(Map.of("127.0.0.1:" + metricsPorts[0], 1.0, "127.0.0.1:" + metricsPorts[1], 2.0,
        "127.0.0.1:" + metricsPorts[2], 3.0), perInstance);
  }

  @Test
  void everyQueryOfTheDashboardAndTheAlertsIsValidPromQl() throws Exception {
    Path docs = Path.of(System.getProperty("mcp.repo.root", "..")).resolve("docs/observability");
    JsonObject dashboard = new JsonObject(Files.readString(docs.resolve("grafana-dashboard.json")));
    List<String> queries = new ArrayList<>();
    for (Object panel : dashboard.getJsonArray("panels")) {
      for (Object target : ((JsonObject) panel).getJsonArray("targets")) {
        queries.add(((JsonObject) target).getString("expr"));
      }
    }
    assertTrue(queries.size() >= 15, "the dashboard's panels: " + queries);
    for (String query : queries) {
      // Grafana's variables as Grafana would fill them for "all instances".
      String promql = query.replace("$__rate_interval", "1m").replace("$job", ".*").replace("$instance", ".*");
      prometheus.query(promql);
    }
    // The alerting rules, checked by Prometheus's own tool.
    Process check = new ProcessBuilder(Prometheus.promtool(), "check", "rules", docs.resolve("alerts.yml").toString())
        .redirectErrorStream(true).start();
    String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(check.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, check.exitValue(), output);
  }

  /** A result vector as label value to sample value ({@code ""} for a sample without the label). */
  private static Map<String, Double> byLabel(JsonArray result, String label) {
    Map<String, Double> values = new TreeMap<>();
    for (int i = 0; i < result.size(); i++) {
      JsonObject sample = result.getJsonObject(i);
      values.put(sample.getJsonObject("metric").getString(label, ""),
          Double.parseDouble(sample.getJsonArray("value").getString(1)));
    }
    return values;
  }
}
