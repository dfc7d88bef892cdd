package io.mcpvertx.examples.e2e.cluster;

import io.mcpvertx.examples.e2e.ExamplesJar;
import io.mcpvertx.examples.e2e.NodeScripts;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.mcpvertx.testing.FreePorts;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;

/**
 * A cluster on loopback, all real processes: a private Redis, {@code N} JVMs of the packaged launcher
 * ({@code java -jar mcp-vertx-examples.jar <example> --http <port> --store redis ...}, clustered with the
 * {@code --cluster} flags when {@link #clustered()}), and nginx in front of them. Each process keeps its output in a
 * file under {@code target/cluster/<run>/}, which {@link #logs()} gathers for failure messages. Slots beyond the
 * HTTP nodes are for worker-only nodes ({@link #startWorker}), which serve tools over the event bus and no HTTP.
 *
 * <p>{@code -Dmcp.e2e.clustered=false} runs the instances without clustering (they share only Redis), for working
 * on the harness; tests that need a cluster call {@link #assumeClustered()} or {@link #assumeClusteredRun()}, so
 * what runs then is what instances sharing only Redis pass.
 */
public final class ClusterHarness implements AutoCloseable {

  /** The system property that turns clustering off ({@code false}); on by default. */
  public static final String CLUSTERED_PROPERTY = "mcp.e2e.clustered";

  /** How long an instance's lease lives: a dead instance is noticed within it. */
  public static final long LEASE_TTL_MS = 3000;
  /** How long a graceful stop of a clustered node waits for its work in flight. */
  static final long SHUTDOWN_TIMEOUT_MS = 25_000;

  private static final long START_TIMEOUT_S = 60;
  private static final DateTimeFormatter RUN_NAME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS");
  private static volatile Boolean launcherClusters;

  private final Path dir;
  private final TestRedis redis;
  private final boolean clustered;
  private final String example;
  private final int httpNodes;
  private final int[] httpPorts;
  private final int[] clusterPorts;
  private final Process[] processes;
  private final List<String> extraArguments;
  private final IntFunction<List<String>> nodeArguments;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private Nginx nginx;

  private ClusterHarness(Path dir, TestRedis redis, boolean clustered, String example, int httpNodes, int workers,
      List<String> extraArguments, IntFunction<List<String>> nodeArguments) throws IOException {
    this.dir = dir;
    this.redis = redis;
    this.clustered = clustered;
    this.example = example;
    this.httpNodes = httpNodes;
    this.extraArguments = List.copyOf(extraArguments);
    this.nodeArguments = nodeArguments;
    int slots = httpNodes + workers;
    this.httpPorts = FreePorts.some(httpNodes);
    this.clusterPorts = FreePorts.some(slots);
    this.processes = new Process[slots];
  }

  /**
   * Starts Redis, {@code httpNodes} instances of {@code example} (waiting until each is ready) and nginx, with room
   * for {@code workers} worker-only nodes started later. Clustered unless {@value #CLUSTERED_PROPERTY} is false.
   */
  public static ClusterHarness start(Class<?> owner, String example, int httpNodes, int workers,
      List<String> extraArguments) throws Exception {
    return start(owner, example, httpNodes, workers, extraArguments, i -> List.of());
  }

  /** As {@link #start(Class, String, int, int, List)}, HTTP node {@code i} getting {@code nodeArguments(i)} too. */
  public static ClusterHarness start(Class<?> owner, String example, int httpNodes, int workers,
      List<String> extraArguments, IntFunction<List<String>> nodeArguments) throws Exception {
    Nginx.require();
    NodeScripts.requireNode();
    Path dir = Paths.get("target", "cluster", owner.getSimpleName() + "-" + LocalDateTime.now().format(RUN_NAME))
        .toAbsolutePath();
    Files.createDirectories(dir);
    TestRedis redis = TestRedis.start(owner);
    ClusterHarness harness = null;
    try {
      harness = new ClusterHarness(dir, redis, clusteredRequested() && launcherClusters(), example, httpNodes,
          workers, extraArguments, nodeArguments);
      for (int i = 0; i < httpNodes; i++) {
        harness.start(i);
      }
      List<Integer> ports = new ArrayList<>();
      for (int port : harness.httpPorts) {
        ports.add(port);
      }
      harness.nginx = Nginx.start(dir.resolve("nginx"), FreePorts.some(1)[0], ports);
      return harness;
    } catch (Throwable e) {
      if (harness != null) {
        String logs = harness.logs();
        harness.close();
        throw new AssertionError("The cluster did not start: " + e.getMessage() + "\n" + logs, e);
      }
      redis.close();
      throw e;
    }
  }

  /** Whether the tests want a cluster ({@value #CLUSTERED_PROPERTY}, true unless set to false). */
  public static boolean clusteredRequested() {
    return !"false".equalsIgnoreCase(System.getProperty(CLUSTERED_PROPERTY, "true"));
  }

  /**
   * Whether the packaged launcher knows {@code --cluster}: asked once, by starting it with a cluster flag and an
   * unknown example, which it refuses either way, naming the flag only when it does not know it.
   */
  public static synchronized boolean launcherClusters() throws Exception {
    if (launcherClusters == null) {
      Process probe = new ProcessBuilder(ExamplesJar.java(), "-jar", ExamplesJar.jar().toString(),
          "no-such-example", "--cluster").redirectErrorStream(true).start();
      if (!probe.waitFor(30, TimeUnit.SECONDS)) {
        probe.destroyForcibly();
      }
      String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      launcherClusters = !output.contains("unknown flag --cluster");
    }
    return launcherClusters;
  }

  /**
   * Skips the calling test class when clustering is wanted ({@value #CLUSTERED_PROPERTY}) but the packaged launcher
   * cannot cluster, before anything starts. With the property false, the tests run on unclustered instances.
   */
  public static void assumeLauncherClusters() throws Exception {
    Assumptions.assumeTrue(!clusteredRequested() || launcherClusters(),
        "the packaged launcher has no --cluster flag yet: these scenarios need clustered instances");
  }

  /**
   * Skips the calling test class unless its instances will be clustered, before anything starts: for scenarios that
   * instances sharing only Redis cannot pass (a server-to-client request or a session's end reaching the instance
   * that holds the session, requestState signed by one instance and checked by another, orphaned tasks settled).
   */
  public static void assumeClusteredRun() throws Exception {
    assumeClustered(clusteredRequested() && launcherClusters());
  }

  /** Skips the calling test unless the instances are clustered, saying why. */
  public void assumeClustered() {
    assumeClustered(clustered);
  }

  private static void assumeClustered(boolean clustered) {
    Assumptions.assumeTrue(clustered, clusteredRequested()
        ? "the packaged launcher has no --cluster flag yet: the scenario needs clustered instances"
        : "-D" + CLUSTERED_PROPERTY + "=false: the scenario needs clustered instances");
  }

  public boolean clustered() {
    return clustered;
  }

  public int httpNodes() {
    return httpNodes;
  }

  /** The instance id of node {@code i}: {@code node1}, {@code node2}, ... */
  public static String instanceId(int i) {
    return "node" + (i + 1);
  }

  /** Starts (or restarts, on its ports) HTTP node {@code i} and waits until it is ready. */
  public void start(int i) throws Exception {
    List<String> command = new ArrayList<>(List.of(ExamplesJar.java(), "-Dhazelcast.phone.home.enabled=false",
        "-jar", ExamplesJar.jar().toString(), example, "--http", String.valueOf(httpPorts[i])));
    command.addAll(redisArguments());
    command.addAll(clusterArguments(i));
    command.addAll(extraArguments);
    command.addAll(nodeArguments.apply(i));
    launch(i, command);
    awaitReady(i);
  }

  /**
   * Starts worker-only node {@code slot} (0-based among the worker slots) serving {@code example}'s tool verticle
   * on the cluster's event bus, without HTTP; returns once the process runs (it joins the cluster on its own).
   */
  public void startWorker(int slot, String example) throws Exception {
    assumeClustered();
    int i = httpNodes + slot;
    List<String> command = new ArrayList<>(List.of(ExamplesJar.java(), "-Dhazelcast.phone.home.enabled=false",
        "-jar", ExamplesJar.jar().toString(), example, "--worker-only"));
    command.addAll(clusterArguments(i));
    launch(i, command);
  }

  /** Index of worker {@code slot} among the processes, for {@link #kill9}, {@link #stop} and {@link #output}. */
  public int workerIndex(int slot) {
    return httpNodes + slot;
  }

  private List<String> redisArguments() throws IOException {
    Path config = dir.resolve("config.json");
    if (!Files.exists(config)) {
      Files.writeString(config, new JsonObject().put("redis", new JsonObject().put("keyPrefix", redis.keyPrefix()))
          .encodePrettily());
    }
    return List.of("--config", config.toString(), "--store", "redis", "--redis-url", redis.url());
  }

  private List<String> clusterArguments(int i) {
    if (!clustered) {
      return List.of();
    }
    String members = IntStream.of(clusterPorts).mapToObj(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
    return List.of("--cluster", "--cluster-host", "127.0.0.1", "--cluster-port", String.valueOf(clusterPorts[i]),
        "--cluster-members", members, "--instance-id", instanceId(i), "--lease-ttl-ms", String.valueOf(LEASE_TTL_MS),
        // A graceful stop waits for the tasks running here; on a loaded two-core CI machine the load's longest
        // tasks outlast the default 10 s, and a task cut by the deadline is what the rolling restart counts as lost.
        "--shutdown-timeout-ms", String.valueOf(SHUTDOWN_TIMEOUT_MS));
  }

  private void launch(int i, List<String> command) throws IOException {
    if (processes[i] != null && processes[i].isAlive()) {
      throw new IllegalStateException(instanceId(i) + " is running");
    }
    Path log = logFile(i);
    Files.writeString(log, "$ " + String.join(" ", command) + "\n", StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    processes[i] = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
  }

  private Path logFile(int i) {
    return dir.resolve(instanceId(i) + ".log");
  }

  private void awaitReady(int i) throws Exception {
    URI ready = URI.create("http://127.0.0.1:" + httpPorts[i] + "/health/ready");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_S);
    while (System.nanoTime() < deadline) {
      if (!processes[i].isAlive()) {
        throw new AssertionError(instanceId(i) + " exited (" + processes[i].exitValue() + ") before it was ready:\n"
            + output(i));
      }
      try {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(2))
            .GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    throw new AssertionError(instanceId(i) + " was not ready within " + START_TIMEOUT_S + " s:\n" + output(i));
  }

  /** Kills process {@code i} with SIGKILL (no shutdown of any kind) and waits until it is gone. */
  public void kill9(int i) throws InterruptedException {
    Process process = processes[i];
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  /** Stops process {@code i} with SIGTERM (its shutdown hooks run) and waits until it is gone. */
  public void stop(int i) throws InterruptedException {
    Process process = processes[i];
    if (process == null) {
      return;
    }
    process.destroy();
    // The shutdown deadline and the stores and the cluster left after it.
    if (!process.waitFor(SHUTDOWN_TIMEOUT_MS / 1000 + 20, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  public boolean isAlive(int i) {
    return processes[i] != null && processes[i].isAlive();
  }

  /** The MCP endpoint through nginx. */
  public String nginxUrl() {
    return nginx.url();
  }

  public Nginx nginx() {
    return nginx;
  }

  /** The MCP endpoint of HTTP node {@code i}, directly. */
  public String nodeUrl(int i) {
    return "http://127.0.0.1:" + httpPorts[i] + "/mcp";
  }

  public int nodePort(int i) {
    return httpPorts[i];
  }

  public TestRedis redis() {
    return redis;
  }

  /** Where this run's logs are. */
  public Path dir() {
    return dir;
  }

  /** What process {@code i} wrote so far. */
  public String output(int i) {
    try {
      Path log = logFile(i);
      return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "(not started)";
    } catch (IOException e) {
      return "(could not read the log of " + instanceId(i) + ": " + e + ")";
    }
  }

  /** The last {@code lines} lines of every process's output and nginx's error log, for failure messages. */
  public String logs(int lines) {
    StringBuilder text = new StringBuilder("(all logs in " + dir + ")\n");
    for (int i = 0; i < processes.length; i++) {
      if (processes[i] != null) {
        text.append("--- ").append(instanceId(i)).append(i >= httpNodes ? " (worker)" : "")
            .append(processes[i].isAlive() ? "" : " (exited)").append(" ---\n").append(tail(output(i), lines))
            .append('\n');
      }
    }
    if (nginx != null) {
      text.append(tail(nginx.output(), lines));
    }
    return text.toString();
  }

  public String logs() {
    return logs(30);
  }

  private static String tail(String text, int lines) {
    String[] all = text.split("\n", -1);
    return String.join("\n", java.util.Arrays.copyOfRange(all, Math.max(0, all.length - lines), all.length));
  }

  @Override
  public void close() throws InterruptedException {
    try {
      if (nginx != null) {
        nginx.close();
      }
    } finally {
      for (int i = 0; i < processes.length; i++) {
        if (processes[i] != null) {
          stop(i);
        }
      }
      redis.close();
    }
  }
}
