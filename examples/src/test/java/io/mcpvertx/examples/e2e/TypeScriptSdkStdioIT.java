package io.mcpvertx.examples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The official TypeScript SDK client (its stdio transport) against the packaged hello example: connect, list and
 * call tools, read a resource, get a prompt. The script is {@code e2e/stdio-client.mjs}; its dependencies are
 * installed from the committed lockfile on first use.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TypeScriptSdkStdioIT {

  @Test
  void typeScriptSdkClientCompletesAToolCallOverStdio() throws Exception {
    Path e2e = ExamplesJar.repoRoot().resolve("e2e");
    NodeScripts.installDependencies(e2e);
    NodeScripts.Result run = NodeScripts.run(e2e, List.of("node", "stdio-client.mjs", ExamplesJar.java(),
        ExamplesJar.jar().toString(), "hello"), 120);
    assertEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().contains("all checks passed"), run.output());
  }

  /** Runs Node and npm for the end-to-end scripts. */
  static final class NodeScripts {

    record Result(int exitCode, String output) {
    }

    private NodeScripts() {
    }

    static void installDependencies(Path dir) throws Exception {
      if (Files.isDirectory(dir.resolve("node_modules").resolve("@modelcontextprotocol"))) {
        return;
      }
      Result install = run(dir, List.of("npm", "ci", "--no-audit", "--no-fund"), 240);
      assertEquals(0, install.exitCode(), "npm ci failed in " + dir + ":\n" + install.output());
    }

    static Result run(Path dir, List<String> command, long timeoutSeconds) throws Exception {
      File log = Files.createTempFile("mcp-node-", ".log").toFile();
      Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
          .redirectOutput(log).start();
      if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return new Result(-1, "timed out after " + timeoutSeconds + " s:\n" + Files.readString(log.toPath()));
      }
      return new Result(process.exitValue(), Files.readString(log.toPath(), StandardCharsets.UTF_8));
    }
  }
}
