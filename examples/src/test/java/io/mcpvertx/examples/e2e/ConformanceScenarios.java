package io.mcpvertx.examples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The official MCP conformance suite's server scenarios ({@code @modelcontextprotocol/conformance}, the versions
 * pinned in {@code e2e/package.json}) against a running conformance example, wherever it runs: 0.1.16's every
 * server scenario, and 0.2.0-alpha.12's session lifecycle and DNS rebinding protection (its other new scenarios, for
 * the stateless 2026 revision, run as one suite at that version, and its pending suite holds the ten
 * tasks-extension scenarios). A subclass says where the server is and what it logged. The suite runs through
 * {@code e2e/conformance.mjs}, which starts it with the pinned Node 22. Results go to
 * {@code <resultsDir>/<version>-<run>/}; a failed check fails the test with the check in the message.
 */
public abstract class ConformanceScenarios {

  private static final Pattern RESULT_DIR = Pattern.compile("^server-(.+)-\\d{4}-\\d{2}-\\d{2}T[\\d-]+Z$");

  /** The MCP endpoint the suite drives: a loopback URL ({@code http://127.0.0.1:<port>/mcp}). */
  protected abstract String url();

  /** What the server side logged so far, for failure messages. */
  protected abstract String serverOutput();

  /** Where the results of each run go, one folder per run. */
  protected abstract Path resultsDir();

  @Test
  void version0116PassesEveryServerScenario() throws Exception {
    // --suite all: the 30 active scenarios and the 2 pending ones (json-schema-2020-12, server-sse-polling).
    run("0.1.16", "suite-all", 32, "--suite", "all");
  }

  @Test
  void version0116SeesTheServerCloseTheReconnectionStreamAndResumeIt() throws Exception {
    // SEP-1699: test_reconnection closes its stream after the priming event, with a retry field; the scenario
    // resumes it with GET and Last-Event-ID and must get the result there.
    List<Check> checks = run("0.1.16", "server-sse-polling", 1, "--scenario", "server-sse-polling");
    for (String id : List.of("server-sse-priming-event", "server-sse-retry-field", "server-sse-disconnect-resume")) {
      assertTrue(checks.stream().anyMatch(c -> c.json().getString("id", "").equals(id)
          && c.status().equals("SUCCESS")), () -> id + " did not succeed: " + checks.stream().map(Check::describe)
          .toList());
    }
  }

  @Test
  void version020alpha12PassesServerSessionLifecycle() throws Exception {
    run("0.2.0-alpha.12", "server-session-lifecycle", 1, "--scenario", "server-session-lifecycle");
  }

  @Test
  void version020alpha12PassesDnsRebindingProtection() throws Exception {
    // Needs a loopback URL: the scenario tells a rebinding Host from the URL's own.
    assertTrue(url().startsWith("http://127.0.0.1:"), url());
    run("0.2.0-alpha.12", "dns-rebinding-protection", 1, "--scenario", "dns-rebinding-protection");
  }

  @Test
  void version020alpha12PassesEverySessionScenario() throws Exception {
    // Every scenario that applies to 2025-11-25 on the session wire, against the same running server.
    run("0.2.0-alpha.12", "sessions-2025-11-25", 33, "--suite", "all", "--spec-version", "2025-11-25");
  }

  @Test
  void version020alpha12PassesEveryStatelessScenario() throws Exception {
    // Every scenario that applies to 2026-07-28 (extension scenarios excluded): server/discover, caching,
    // routing headers, input_required, and the carried-over tools/resources/prompts scenarios on the new wire.
    run("0.2.0-alpha.12", "stateless-2026-07-28", 40, "--suite", "all", "--spec-version", "2026-07-28");
  }

  @Test
  void version020alpha12PassesEveryPendingScenarioIncludingTheTenTaskScenarios() throws Exception {
    // The pending suite: the ten tasks-* scenarios of the tasks extension (SEP-2663, on the stateless wire), the
    // two header-validation scenarios, json-schema-2020-12, server-sse-polling and the three skills scenarios
    // (skipped by the suite itself: we do not declare the skills extension).
    run("0.2.0-alpha.12", "pending", 17, "--suite", "pending");
  }

  /** One check of one scenario, as {@code checks.json} holds it. */
  private record Check(String scenario, JsonObject json) {

    String status() {
      return json.getString("status", "");
    }

    /** The scenario, then the check without its spec references and timestamp, cut at 1,000 characters. */
    String describe() {
      JsonObject shown = json.copy();
      shown.remove("specReferences");
      shown.remove("timestamp");
      String text = scenario + ": " + shown.encode();
      return text.length() <= 1000 ? text : text.substring(0, 1000) + "...";
    }
  }

  /**
   * Runs the suite's CLI with {@code options} and {@code -o <resultsDir>/<version>-<label>}, then asserts that it
   * wrote {@code scenarios} results, no check failed, some passed, and it exited 0; yields the checks.
   */
  private List<Check> run(String version, String label, int scenarios, String... options) throws Exception {
    Path e2e = NodeScripts.e2eDir();
    Path out = resultsDir().resolve(version + "-" + label).toAbsolutePath();
    deleteRecursively(out);
    Files.createDirectories(out);
    List<String> command = new ArrayList<>(List.of("node", "conformance.mjs", version, url()));
    command.addAll(List.of(options));
    command.addAll(List.of("-o", out.toString()));
    NodeScripts.Result result = NodeScripts.run(e2e, command, 300);
    Files.writeString(out.resolve("cli.log"), result.output(), StandardCharsets.UTF_8);

    List<Path> results = resultFiles(out);
    List<Check> checks = readChecks(results);
    long passed = checks.stream().filter(c -> c.status().equals("SUCCESS")).count();
    List<Check> failed = checks.stream().filter(c -> c.status().equals("FAILURE")).toList();
    List<Check> warned = checks.stream().filter(c -> c.status().equals("WARNING")).toList();
    int scenariosRun = results.size();
    String summary = "conformance " + version + " " + String.join(" ", options) + ": " + scenariosRun
        + " scenarios, " + passed + " passed, " + failed.size() + " failed, " + warned.size() + " warnings (exit "
        + result.exitCode() + "; results in " + out + ")";
    System.out.println(summary);
    warned.forEach(c -> System.out.println("  WARNING " + c.describe()));

    String details = summary
        + (failed.isEmpty() ? "" : "\nFailed checks:\n  " + String.join("\n  ", failed.stream()
            .map(Check::describe).toList()))
        + "\n--- conformance CLI (last lines; all in " + out.resolve("cli.log") + ") ---\n"
        + result.tail(40).replaceAll("\u001B\\[[;\\d]*m", "")
        + "\n--- server output (last lines) ---\n" + new NodeScripts.Result(0, serverOutput()).tail(20);
    assertTrue(failed.isEmpty(), details);
    assertEquals(0, result.exitCode(), details);
    assertEquals(scenarios, scenariosRun, "scenarios with results; " + details);
    assertTrue(passed > 0, "no check passed; " + details);
    return checks;
  }

  /** The {@code checks.json} files under {@code out}: one per scenario run. */
  private static List<Path> resultFiles(Path out) throws IOException {
    try (Stream<Path> files = Files.walk(out)) {
      return files.filter(f -> f.getFileName().toString().equals("checks.json")).sorted().toList();
    }
  }

  private static List<Check> readChecks(List<Path> results) throws IOException {
    List<Check> checks = new ArrayList<>();
    for (Path file : results) {
      String dir = file.getParent().getFileName().toString();
      Matcher m = RESULT_DIR.matcher(dir);
      String scenario = m.matches() ? m.group(1) : dir;
      for (Object check : new JsonArray(Files.readString(file, StandardCharsets.UTF_8))) {
        checks.add(new Check(scenario, (JsonObject) check));
      }
    }
    return checks;
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
