package io.mcpvertx.examples.e2e;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/**
 * The {@link ConformanceScenarios} against the packaged conformance example served over Streamable HTTP by one
 * process. Results go to {@code target/conformance/<version>-<run>/}.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ConformanceSuiteIT extends ConformanceScenarios {

  private static HttpExample server;

  @BeforeAll
  static void startServer() throws Exception {
    NodeScripts.installDependencies(NodeScripts.e2eDir());
    NodeScripts.requireConformanceCli();
    server = HttpExample.start("conformance");
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Override
  protected String url() {
    return server.url();
  }

  @Override
  protected String serverOutput() {
    return server.output();
  }

  @Override
  protected Path resultsDir() {
    return Paths.get("target", "conformance");
  }
}
