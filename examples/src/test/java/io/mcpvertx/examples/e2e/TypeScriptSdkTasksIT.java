package io.mcpvertx.examples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The official TypeScript SDK client's experimental tasks API ({@code client.experimental.tasks}) against the
 * packaged conformance example over Streamable HTTP, on the 2025-11-25 task wire: task-augmented calls followed
 * with {@code callToolStream}, {@code tasks/get}, {@code tasks/list} and {@code tasks/result}; a task failed by
 * an {@code isError} result and one failed by a JSON-RPC error; elicitations (one, then two at once) delivered
 * on the {@code tasks/result} stream; {@code tasks/cancel}. The script is {@code e2e/tasks-client.mjs}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TypeScriptSdkTasksIT {

  @Test
  void typeScriptSdkClientRunsTaskAugmentedToolCalls() throws Exception {
    Path e2e = NodeScripts.e2eDir();
    NodeScripts.installDependencies(e2e);
    try (HttpExample server = HttpExample.start("conformance")) {
      NodeScripts.Result run = NodeScripts.run(e2e, List.of("node", "tasks-client.mjs", server.url()), 180);
      String details = run.output() + "\n--- server output (last lines) ---\n"
          + new NodeScripts.Result(0, server.output()).tail(30);
      System.out.println(run.output());
      assertEquals(0, run.exitCode(), details);
      assertTrue(run.output().contains("typescript-sdk tasks: all checks passed"), details);
    }
  }
}
