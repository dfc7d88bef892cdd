package io.mcpvertx.examples.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Locations the end-to-end tests need: the packaged examples jar, a java binary, the repository root. */
public final class ExamplesJar {

  private ExamplesJar() {
  }

  public static Path jar() {
    Path jar = Paths.get("target", "mcp-vertx-examples.jar").toAbsolutePath();
    assertTrue(Files.isRegularFile(jar), "The packaged examples jar is missing; run the tests with 'mvn verify': " + jar);
    return jar;
  }

  public static String java() {
    return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
  }

  public static Path repoRoot() {
    String root = System.getProperty("mcp.repo.root");
    return root != null ? Paths.get(root) : Paths.get("..").toAbsolutePath().normalize();
  }

  /** Starts an example over stdio, with its standard error kept in a file for failure messages. */
  static Process start(String example) throws IOException {
    Path stderr = Files.createTempFile("mcp-e2e-", ".stderr");
    return new ProcessBuilder(java(), "-jar", jar().toString(), example)
        .redirectError(stderr.toFile())
        .start();
  }
}
