package io.mcpvertx.examples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The packaged launcher answers --help and --version, and refuses a wrong flag at once, before starting anything. */
class LauncherIT {

  private record Run(int exit, String out, String err) {
  }

  private static Run run(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(ExamplesJar.java(), "-jar", ExamplesJar.jar().toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).start();
    process.getOutputStream().close();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the launcher did not exit: " + command);
    return new Run(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
        new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
  }

  @Test
  void helpListsTheFlagsOnStandardOutput() throws Exception {
    Run help = run("--help");
    assertEquals(0, help.exit(), help.err());
    assertTrue(help.out().contains("--store") && help.out().contains("MCP_STORE"), help.out());
  }

  @Test
  void versionNamesTheRevisionsServed() throws Exception {
    Run version = run("--version");
    assertEquals(0, version.exit(), version.err());
    assertTrue(version.out().contains("2025-11-25") && version.out().contains("2026-07-28"), version.out());
  }

  @Test
  void aWrongFlagExitsWithStatus2AndNamesIt() throws Exception {
    Run wrong = run("--htp", "3000");
    assertEquals(2, wrong.exit(), wrong.out());
    assertTrue(wrong.err().contains("unknown flag --htp (did you mean --http?)"), wrong.err());
    assertEquals("", wrong.out(), "nothing on the protocol stream");
  }
}
