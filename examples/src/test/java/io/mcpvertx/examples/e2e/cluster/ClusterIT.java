package io.mcpvertx.examples.e2e.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.examples.e2e.NodeScripts;
import io.mcpvertx.testing.StatelessTestClient;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.testing.http.StreamableHttpSession;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Three clustered instances of the conformance example on one Redis, nginx in front (round-robin, no stickiness),
 * and room for a worker-only node: the TypeScript SDK client's sessions spread over every instance, a task created
 * through one instance, run on another and read through a third (on both task wires), a worker-only node's tool
 * following it in and out of {@code tools/list}, and, last, an instance killed with SIGKILL under the load of 20
 * clients ({@code e2e/cluster-load.mjs}), every one of which must finish.
 */
@Timeout(value = 9, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterIT {

  /** The progress steps of each streaming call of {@code e2e/cluster-load.mjs} (its {@code STEPS}). */
  private static final int STREAM_STEPS = 12;

  private static final long BOUND_MS = 30_000;
  private static final String SESSIONS = "2025-11-25";
  /** What these clients declare on the 2026-07-28 wire: the tasks extension and nothing else. */
  private static final JsonObject TASKS_ONLY = new JsonObject().put("extensions",
      new JsonObject().put(StatelessTestClient.TASKS_EXTENSION, new JsonObject()));
  private static Path e2e;
  private static ClusterHarness cluster;
  private static Vertx vertx;
  /** One connection pool for every instance: the polls below ask again and again. */
  private static StreamableHttp http;

  @BeforeAll
  static void startCluster() throws Exception {
    ClusterHarness.assumeLauncherClusters();
    e2e = NodeScripts.e2eDir();
    NodeScripts.installDependencies(e2e);
    cluster = ClusterHarness.start(ClusterIT.class, "conformance", 3, 1, List.of());
    vertx = Vertx.vertx();
    http = StreamableHttp.http1(vertx, cluster.nodePort(0));
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (vertx != null) {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  /** Waits for a test client's answer: these tests drive the cluster from the test thread, one step at a time. */
  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(BOUND_MS, TimeUnit.MILLISECONDS);
  }

  /** HTTP to the instance (or proxy) at {@code url}, a Streamable HTTP endpoint on the default path. */
  private static StreamableHttp http(String url) {
    return http.at(URI.create(url).getPort());
  }

  /** A 2026-07-28 client of the instance (or proxy) at {@code url}. */
  private static StatelessTestClient stateless(String url) {
    return StatelessTestClient.over(vertx, http(url).stateless());
  }

  private static String text(JsonObject result) {
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }

  /** Polls {@code condition} every 200 ms for {@code BOUND_MS}; fails with {@code what} and the logs. */
  private static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BOUND_MS);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + BOUND_MS + " ms: " + what + "\n" + cluster.logs());
      }
      Thread.sleep(200);
    }
  }

  private static NodeScripts.Result script(String name, String url) throws Exception {
    NodeScripts.Result run = NodeScripts.run(e2e, List.of("node", name, url), 180);
    System.out.println(run.output());
    return run;
  }

  @Test
  @Order(1)
  void typeScriptSdkSessionsThroughNginxLandOnEveryInstance() throws Exception {
    // Unclustered, the elicitation check fails: the request never reaches the client's stream on another instance.
    cluster.assumeClustered();
    NodeScripts.Result http = script("http-client.mjs", cluster.nginxUrl());
    assertEquals(0, http.exitCode(), () -> http.output() + "\n" + cluster.logs());
    assertTrue(http.output().contains("typescript-sdk http: all checks passed"), http::output);
    NodeScripts.Result tasks = script("tasks-client.mjs", cluster.nginxUrl());
    assertEquals(0, tasks.exitCode(), () -> tasks.output() + "\n" + cluster.logs());
    assertTrue(tasks.output().contains("typescript-sdk tasks: all checks passed"), tasks::output);

    Map<String, Set<String>> spread = cluster.nginx().instancesBySession();
    long spanning = spread.values().stream().filter(instances -> instances.size() > 1).count();
    Set<String> instances = new TreeSet<>();
    spread.values().forEach(instances::addAll);
    String report = spread.size() + " sessions, " + spanning + " answered by more than one instance; instances: "
        + instances + "; by session: " + spread;
    System.out.println("nginx access log: " + report);
    assertTrue(spanning > 0, report);
    assertEquals(cluster.httpNodes(), instances.size(), report);
  }

  @Test
  @Order(2)
  void aSessionTaskCreatedThroughOneInstanceRunsOnItsOwnerAndIsReadThroughAThird() throws Exception {
    StreamableHttpSession client = await(http(cluster.nodeUrl(0)).initialize(SESSIONS,
        new JsonObject().put("tasks", new JsonObject())));
    int node2 = URI.create(cluster.nodeUrl(1)).getPort();
    int node3 = URI.create(cluster.nodeUrl(2)).getPort();
    JsonObject created = await(client.at(node2).call("tools/call", new JsonObject()
        .put("name", "slow_compute").put("arguments", new JsonObject().put("seconds", 2).put("label", "hop"))
        .put("task", new JsonObject().put("ttl", 60_000))));
    JsonObject task = created.getJsonObject("task");
    assertNotNull(task, created::encode);
    String taskId = task.getString("taskId");
    if (cluster.clustered()) {
      // The session is node1's: its handlers, this task's included, run there, whichever instance took the call.
      // (An instance registers its lease as its name, a dash and a random suffix.)
      List<String> executors = executors(taskId);
      assertEquals(1, executors.size(), () -> "the instances whose execution sets hold the task: " + executors);
      assertTrue(executors.get(0).startsWith(ClusterHarness.instanceId(0) + "-"), () -> "the task runs on "
          + executors + ", not on the session's owner " + ClusterHarness.instanceId(0));
    }
    String[] status = {task.getString("status")};
    eventually("task " + taskId + " completed, read through node3 (last: " + status[0] + ")", () -> {
      try {
        status[0] = await(client.at(node3).call("tasks/get", new JsonObject().put("taskId", taskId)))
            .getString("status");
        return status[0].equals("completed");
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    JsonObject result = await(client.at(node3).call("tasks/result", new JsonObject().put("taskId", taskId)));
    assertEquals("Computed hop in 2.0 s", text(result), result::encode);
  }

  /** The instances whose lease-store execution sets list {@code taskId} (read in Redis while it runs). */
  private static List<String> executors(String taskId) {
    List<String> found = new ArrayList<>();
    for (String key : cluster.redis().keys()) {
      int at = key.indexOf("{leases}:e:");
      if (at >= 0 && cluster.redis().call("SMEMBERS", key) instanceof List<?> members
          && members.stream().anyMatch(m -> String.valueOf(m).equals(taskId))) {
        found.add(key.substring(at + "{leases}:e:".length()));
      }
    }
    return found;
  }

  @Test
  @Order(3)
  void anExtensionTaskCreatedThroughOneInstanceIsReadThroughAnother() throws Exception {
    StatelessTestClient node2 = stateless(cluster.nodeUrl(1));
    StatelessTestClient node3 = stateless(cluster.nodeUrl(2));
    StatelessTestClient node1 = stateless(cluster.nodeUrl(0));
    StatelessTestClient.Exchange created = await(node2.request("tools/call", new JsonObject()
        .put("name", "slow_compute").put("arguments", new JsonObject().put("seconds", 1).put("label", "modern")))
        .capabilities(TASKS_ONLY.copy()).send());
    JsonObject task = created.result();
    assertEquals(200, created.status(), created.response()::encode);
    assertEquals("task", task.getString("resultType"), task::encode);
    String taskId = task.getString("taskId");
    JsonObject[] last = {task};
    eventually("extension task " + taskId + " completed, read through node3", () -> {
      try {
        last[0] = getTask(node3, taskId);
        return "completed".equals(last[0].getString("status"));
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    assertEquals("Computed modern in 1.0 s", text(last[0].getJsonObject("result")), last[0]::encode);
    JsonObject fromNode1 = getTask(node1, taskId);
    assertEquals("completed", fromNode1.getString("status"), fromNode1::encode);
    node1.assertNoViolations();
    node2.assertNoViolations();
    node3.assertNoViolations();
  }

  /** {@code tasks/get} through {@code client}: the result, which must have come with a 200. */
  private static JsonObject getTask(StatelessTestClient client, String taskId) throws Exception {
    StatelessTestClient.Exchange got = await(client.request("tasks/get", new JsonObject().put("taskId", taskId))
        .capabilities(TASKS_ONLY.copy()).send());
    assertEquals(200, got.status(), got.response()::encode);
    return got.result();
  }

  /** The tools {@code url}'s {@code tools/list} shows (2026-07-28: no session needed). */
  private static Set<String> tools(String url) {
    try {
      StatelessTestClient.Exchange listed = await(stateless(url).request("tools/list")
          .capabilities(TASKS_ONLY.copy()).send());
      assertEquals(200, listed.status(), listed.response()::encode);
      JsonArray tools = listed.result().getJsonArray("tools");
      Set<String> names = new TreeSet<>();
      tools.forEach(t -> names.add(((JsonObject) t).getString("name")));
      return names;
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  @Order(4)
  void aWorkerOnlyNodesToolFollowsItIntoAndOutOfToolsList() throws Exception {
    cluster.assumeClustered();
    assertTrue(!tools(cluster.nginxUrl()).contains("clock"), "no clock tool before the worker joins");
    cluster.startWorker(0, "clock");
    eventually("the worker's clock tool in tools/list through nginx", () -> tools(cluster.nginxUrl())
        .contains("clock"));
    for (int i = 0; i < cluster.httpNodes(); i++) {
      int node = i;
      eventually("the clock tool listed by " + ClusterHarness.instanceId(node), () -> tools(cluster.nodeUrl(node))
          .contains("clock"));
    }
    cluster.kill9(cluster.workerIndex(0));
    for (int i = 0; i < cluster.httpNodes(); i++) {
      int node = i;
      eventually("the clock tool gone from " + ClusterHarness.instanceId(node) + " once its worker was killed",
          () -> !tools(cluster.nodeUrl(node)).contains("clock"));
    }
  }

  @Test
  @Order(5)
  void everyClientFinishesWhenAnInstanceIsKilledUnderLoad() throws Exception {
    // Unclustered, the killed instance's tasks stay working (no lease settles them) and its cut streams are not
    // resumed elsewhere.
    cluster.assumeClustered();
    Path log = cluster.dir().resolve("cluster-load.log");
    Path killed = cluster.dir().resolve("killed");
    Process load = new ProcessBuilder("node", "cluster-load.mjs", cluster.nginxUrl(), "20", "1", killed.toString())
        .directory(e2e.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (!read(log).contains("cluster-load: kill now")) {
        if (!load.isAlive() || System.nanoTime() > deadline) {
          throw new AssertionError("the load never got to its streaming calls:\n" + read(log) + "\n"
              + cluster.logs());
        }
        Thread.sleep(20);
      }
      cluster.kill9(1);
      // From now on the load counts its requests apart: none may be told to send again.
      Files.writeString(killed, "node2 is dead");
      assertTrue(load.waitFor(170, TimeUnit.SECONDS), () -> "the load did not end:\n" + read(log));
    } finally {
      load.destroyForcibly();
    }
    String output = read(log);
    String line = output.lines().filter(l -> l.startsWith("cluster-load summary ")).reduce((a, b) -> b)
        .orElseThrow(() -> new AssertionError("no summary:\n" + output + "\n" + cluster.logs()));
    JsonObject summary = new JsonObject(line.substring("cluster-load summary ".length()));
    System.out.println("cluster-load (node2 killed with SIGKILL mid-run): " + summary.encodePrettily());
    String details = summary.encodePrettily() + "\n" + cluster.logs(40);
    assertEquals(List.of(), summary.getJsonArray("failures").getList(), details);
    assertEquals(summary.getInteger("opsExpected"), summary.getInteger("opsDone"), details);
    JsonObject tasks = summary.getJsonObject("tasks");
    assertEquals(tasks.getInteger("accepted"), tasks.getInteger("terminal"), details);
    assertTrue(tasks.getLong("maxSettleMs") < 60_000, details);
    // The 2026-07-28 wire: a stateless call and an extension task per client, after the kill; every task settles.
    assertEquals(20, summary.getJsonObject("stateless").getInteger("calls"), details);
    JsonObject extension = summary.getJsonObject("extensionTasks");
    assertEquals(20, extension.getInteger("accepted"), details);
    assertEquals(extension.getInteger("accepted"), extension.getInteger("terminal"), details);
    // Every client's long task was running at the kill: those of sessions on the killed instance were orphans, failed
    // by a surviving instance once the dead one's lease (3 s) was gone, with the message that says why.
    assertTrue(tasks.getInteger("executorStopped") > 0, "no task of the killed instance was settled; " + details);
    JsonObject streams = summary.getJsonObject("streams");
    assertEquals(20, streams.getInteger("completed"), details);
    // Every client was inside its streaming call at the kill: some of those streams went through the killed instance
    // and were resumed elsewhere with Last-Event-ID.
    assertTrue(streams.getInteger("cut") > 0, "no stream was cut by the kill; " + details);
    assertTrue(summary.getJsonObject("resumes").getInteger("answered") > 0, "no cut stream was resumed; " + details);
    // Requests that arrived for the dead instance's sessions after its death were held until the sessions moved
    // (within the lease TTL and a renew interval or two), not refused: only calls it was running needed a re-send.
    assertTrue(summary.getInteger("sentAfterKill") > 0, "no request was sent after the kill; " + details);
    assertEquals(0, summary.getJsonObject("retries").getInteger("resendAfterKill"),
        "a request sent after the kill was refused with 'send again'; " + details);
    // A POST the killed instance held without answering is sent on by nginx, not answered 502: to the session's
    // owner, where a request still running takes the new exchange (not refused as an id in use).
    assertEquals(0, summary.getJsonObject("retries").getInteger("http502"), "a 502 after the kill; " + details);
    assertEquals(0, load.exitValue(), details);
  }

  /**
   * A rolling restart under load: while 20 clients run four rounds of plain calls, progress streams and tasks
   * through nginx, each instance in turn gets SIGTERM and is started again once it is gone. A stopping instance
   * hands its resumable streams over (retry, then the client resumes elsewhere), finishes its requests and task
   * handlers, and moves its sessions; no call may fail, no task may be lost, and every stream must bring each of
   * its events once.
   */
  @Test
  @Order(6)
  void aRollingRestartUnderLoadFailsNoCallAndLosesNoTask() throws Exception {
    cluster.assumeClustered();
    for (int i = 0; i < cluster.httpNodes(); i++) {
      if (!cluster.isAlive(i)) {
        cluster.start(i); // the kill test above left one down
      }
    }
    Path log = cluster.dir().resolve("cluster-load-rolling.log");
    Process load = new ProcessBuilder("node", "cluster-load.mjs", cluster.nginxUrl(), "20", "4")
        .directory(e2e.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long[] restartMs = new long[cluster.httpNodes()];
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (!read(log).contains("cluster-load: kill now")) {
        if (!load.isAlive() || System.nanoTime() > deadline) {
          throw new AssertionError("the load never got to its streaming calls:\n" + read(log) + "\n"
              + cluster.logs());
        }
        Thread.sleep(20);
      }
      for (int i = 0; i < cluster.httpNodes(); i++) {
        long started = System.nanoTime();
        cluster.stop(i);
        cluster.start(i);
        restartMs[i] = (System.nanoTime() - started) / 1_000_000;
      }
      assertTrue(load.waitFor(300, TimeUnit.SECONDS), () -> "the load did not end:\n" + read(log));
    } finally {
      load.destroyForcibly();
    }
    String output = read(log);
    String line = output.lines().filter(l -> l.startsWith("cluster-load summary ")).reduce((a, b) -> b)
        .orElseThrow(() -> new AssertionError("no summary:\n" + output + "\n" + cluster.logs()));
    JsonObject summary = new JsonObject(line.substring("cluster-load summary ".length()));
    System.out.println("cluster-load (rolling restart, SIGTERM then start, instance by instance; restarts took "
        + java.util.Arrays.toString(restartMs) + " ms): " + summary.encodePrettily());
    String details = summary.encodePrettily() + "\n" + cluster.logs(40);
    assertEquals(List.of(), summary.getJsonArray("failures").getList(), details);
    assertEquals(summary.getInteger("opsExpected"), summary.getInteger("opsDone"), details);
    JsonObject tasks = summary.getJsonObject("tasks");
    assertEquals(tasks.getInteger("accepted"), tasks.getInteger("terminal"), details);
    assertEquals(tasks.getInteger("accepted"), tasks.getJsonObject("statuses").getInteger("completed"),
        "a task did not complete; " + details);
    JsonObject streams = summary.getJsonObject("streams");
    assertEquals(80, streams.getInteger("completed"), details);
    assertEquals(0, tasks.getInteger("executorStopped"), "a task was orphaned by a graceful stop; " + details);
    // The 2026-07-28 wire, a stateless call and an extension task per client and round: all served, all completed.
    assertEquals(80, summary.getJsonObject("stateless").getInteger("calls"), details);
    JsonObject extension = summary.getJsonObject("extensionTasks");
    assertEquals(80, extension.getInteger("accepted"), details);
    assertEquals(80, extension.getJsonObject("statuses").getInteger("completed", 0), "an extension task did not "
        + "complete; " + details);
    // No call sees the restarts: a POST a stopping instance dropped unread is sent on by nginx
    // (non_idempotent), never answered 502.
    JsonObject retries = summary.getJsonObject("retries");
    for (String seen : List.of("transport", "http502", "http503", "http504")) {
      assertEquals(0, retries.getInteger(seen), () -> seen + " during the rolling restart; " + details);
    }
    // A stream handed over is resumed, never sent again; a resumed stream brings each event once (a call the
    // client had to send again, below, brings its progress anew).
    assertEquals(0, summary.getJsonObject("retries").getInteger("streamResend"),
        "a stream had to be sent again; " + details);
    assertTrue(streams.getInteger("cut") > 0, "no stream was handed over; " + details);
    assertEquals(streams.getInteger("cut"), summary.getJsonObject("resumes").getInteger("answered"), details);
    // Each streaming call's progress events, counted with repeats, are its steps exactly once; only a call the
    // server told the client to send again may bring some of them twice.
    int resent = summary.getJsonObject("retries").getInteger("resendError");
    int progress = streams.getInteger("progressEvents");
    if (resent == 0) {
      assertEquals(80 * STREAM_STEPS, progress, "a progress event was lost or repeated; " + details);
    } else {
      assertTrue(progress >= 80 * STREAM_STEPS && progress <= (80 + resent) * STREAM_STEPS, details);
    }
    assertEquals(0, load.exitValue(), details);
  }

  private static String read(Path log) {
    try {
      return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    } catch (java.io.IOException e) {
      return "(could not read " + log + ": " + e + ")";
    }
  }
}
