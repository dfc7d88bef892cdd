package io.mcpvertx.examples.e2e.cluster;

import io.mcpvertx.examples.e2e.ConformanceScenarios;
import io.mcpvertx.examples.e2e.NodeScripts;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/**
 * The {@link ConformanceScenarios}, both suite versions, through nginx in front of three clustered instances of the
 * conformance example sharing one Redis: round-robin and no stickiness, so a session's requests, its streams and its
 * tasks land on any instance. Results go to {@code target/conformance-cluster/<version>-<run>/}.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ClusterConformanceIT extends ConformanceScenarios {

  private static ClusterHarness cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    // Without clustering, the elicitation scenarios, a deleted session's 404 and requestState round trips fail.
    ClusterHarness.assumeClusteredRun();
    NodeScripts.installDependencies(NodeScripts.e2eDir());
    NodeScripts.requireConformanceCli();
    cluster = ClusterHarness.start(ClusterConformanceIT.class, "conformance", 3, 0, List.of());
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Override
  protected String url() {
    return cluster.nginxUrl();
  }

  @Override
  protected String serverOutput() {
    return cluster.logs(15);
  }

  @Override
  protected Path resultsDir() {
    return Paths.get("target", "conformance-cluster");
  }
}
