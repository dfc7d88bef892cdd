package io.mcpvertx.examples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The official TypeScript SDK client over Streamable HTTP ({@code StreamableHTTPClientTransport}) against the
 * packaged conformance example: a call with progress, an elicitation the client answers, and a streaming call
 * whose connection is dropped and then resumed from its last event id, both by hand (a new transport on the same
 * session and {@code resumptionToken}) and by the SDK's own reconnection. The script is
 * {@code e2e/http-client.mjs}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TypeScriptSdkHttpIT {

  @Test
  void typeScriptSdkClientStreamsElicitsAndResumesOverHttp() throws Exception {
    Path e2e = NodeScripts.e2eDir();
    NodeScripts.installDependencies(e2e);
    try (HttpExample server = HttpExample.start("conformance")) {
      NodeScripts.Result run = NodeScripts.run(e2e, List.of("node", "http-client.mjs", server.url()), 180);
      String details = run.output() + "\n--- server output (last lines) ---\n"
          + new NodeScripts.Result(0, server.output()).tail(30);
      System.out.println(run.output());
      assertEquals(0, run.exitCode(), details);
      assertTrue(run.output().contains("typescript-sdk http: all checks passed"), details);
    }
  }
}
