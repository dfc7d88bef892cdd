package io.mcpvertx.examples.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An example of the packaged jar served over Streamable HTTP as a subprocess:
 * {@code java -jar mcp-vertx-examples.jar <example> --http 0}, on a free port of 127.0.0.1 that the jar reports on
 * its standard error.
 */
final class HttpExample implements AutoCloseable {

  private static final Pattern LISTENING =
      Pattern.compile("MCP server listening on (http://127\\.0\\.0\\.1:\\d+/mcp)");

  private final Process process;
  private final Path log;
  private final String url;

  private HttpExample(Process process, Path log, String url) {
    this.process = process;
    this.log = log;
    this.url = url;
  }

  /** Starts {@code example} and waits (up to a minute) for the line that says where it listens. */
  static HttpExample start(String example) throws Exception {
    return start(example, 0, List.of());
  }

  /** Starts {@code example} on {@code port} (0: a free one) with more arguments (such as the auth flags). */
  static HttpExample start(String example, int port, List<String> arguments) throws Exception {
    Path log = Files.createTempFile("mcp-e2e-" + example + "-http-", ".log");
    log.toFile().deleteOnExit();
    List<String> command = new ArrayList<>(List.of(ExamplesJar.java(), "-jar", ExamplesJar.jar().toString(),
        example, "--http", String.valueOf(port)));
    command.addAll(arguments);
    Process process = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      Matcher listening = LISTENING.matcher(read(log));
      if (listening.find()) {
        return new HttpExample(process, log, listening.group(1));
      }
      if (!process.isAlive()) {
        throw new AssertionError("The " + example + " example exited (" + process.exitValue()
            + ") before listening:\n" + read(log));
      }
      Thread.sleep(50);
    }
    process.destroyForcibly();
    throw new AssertionError("The " + example + " example did not say where it listens within 60 s:\n" + read(log));
  }

  /** The MCP endpoint, {@code http://127.0.0.1:<port>/mcp}. */
  String url() {
    return url;
  }

  /** What the server wrote so far (its logs), for assertion messages. */
  String output() {
    return read(log);
  }

  /** Kills the process (SIGKILL), as a crash would: no shutdown hook runs, the lease is left to lapse. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static String read(Path log) {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(could not read " + log + ": " + e + ")";
    }
  }
}
