package io.mcpvertx.examples.e2e.cluster;

import io.mcpvertx.testing.Prerequisites;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A real Prometheus server (the Debian package's binary) scraping a list of targets every second, with its data in
 * a directory of the test run, and its HTTP query API on a port of 127.0.0.1.
 */
final class Prometheus implements AutoCloseable {

  private static final String HOW_TO_GET = "install the Debian package prometheus (apt-get install -y "
      + "--no-install-recommends prometheus, as .ci/run does) or put prometheus on the PATH";

  private final Process process;
  private final Path dir;
  private final int port;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private Prometheus(Process process, Path dir, int port) {
    this.process = process;
    this.dir = dir;
    this.port = port;
  }

  /** Skips (or, under {@code CI=true}, fails) the calling test at once when there is no prometheus binary. */
  static void require() {
    Prerequisites.require(find().isPresent(), "prometheus (for the metrics test)", HOW_TO_GET);
  }

  private static Optional<String> find() {
    for (String path : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!path.isEmpty() && Files.isExecutable(Paths.get(path, "prometheus"))) {
        return Optional.of(Paths.get(path, "prometheus").toString());
      }
    }
    return Files.isExecutable(Paths.get("/usr/bin/prometheus")) ? Optional.of("/usr/bin/prometheus")
        : Optional.empty();
  }

  /** The promtool binary installed beside prometheus. */
  static String promtool() {
    Path prometheus = Paths.get(find().orElseThrow(() -> new AssertionError(HOW_TO_GET)));
    return prometheus.resolveSibling("promtool").toString();
  }

  /** Starts Prometheus on {@code port} scraping {@code targets} ({@code host:port}) as job {@code mcp}. */
  static Prometheus start(Path dir, int port, List<String> targets) throws Exception {
    Files.createDirectories(dir.resolve("data"));
    Path config = dir.resolve("prometheus.yml");
    String list = targets.stream().map(t -> "'" + t + "'").collect(Collectors.joining(", "));
    Files.writeString(config, """
        global:
          scrape_interval: 1s
          scrape_timeout: 1s
        scrape_configs:
          - job_name: mcp
            metrics_path: /metrics
            static_configs:
              - targets: [%s]
        """.formatted(list), StandardCharsets.UTF_8);
    Process process = new ProcessBuilder(find().orElseThrow(() -> new AssertionError(HOW_TO_GET)),
        "--config.file=" + config, "--storage.tsdb.path=" + dir.resolve("data"),
        "--web.listen-address=127.0.0.1:" + port)
        .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.out").toFile()).start();
    Prometheus prometheus = new Prometheus(process, dir, port);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new AssertionError("prometheus exited (" + process.exitValue() + "):\n" + prometheus.output());
      }
      if (prometheus.ready()) {
        return prometheus;
      }
      Thread.sleep(100);
    }
    prometheus.close();
    throw new AssertionError("prometheus was not ready within 30 s:\n" + prometheus.output());
  }

  private boolean ready() {
    try {
      return get("/-/ready").statusCode() == 200;
    } catch (IOException notYet) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The result vector of an instant PromQL query: {@code [{"metric": {...}, "value": [time, "v"]}, ...]}. */
  JsonArray query(String promql) throws IOException, InterruptedException {
    HttpResponse<String> response = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    JsonObject body = new JsonObject(response.body());
    if (!"success".equals(body.getString("status"))) {
      throw new AssertionError("query " + promql + " failed: " + response.body());
    }
    return body.getJsonObject("data").getJsonArray("result");
  }

  private HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
  }

  String output() {
    try {
      return Files.readString(dir.resolve("prometheus.out"));
    } catch (IOException e) {
      return "(no output: " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
