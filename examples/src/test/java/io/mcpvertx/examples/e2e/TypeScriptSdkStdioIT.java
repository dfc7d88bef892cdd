package io.mcpvertx.examples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    Path e2e = NodeScripts.e2eDir();
    NodeScripts.installDependencies(e2e);
    NodeScripts.Result run = NodeScripts.run(e2e, List.of("node", "stdio-client.mjs", ExamplesJar.java(),
        ExamplesJar.jar().toString(), "hello"), 120);
    assertEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().contains("all checks passed"), run.output());
  }
}
