package io.mcpvertx.testing;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test needs from the machine beyond the JDK and Maven (nginx, Node, npm, the official schemas): when it is
 * missing, the test is skipped at once with one line saying what is missing and how to get it, or, under
 * {@code CI=true}, fails at once, so a CI machine that lost a tool is noticed instead of passing with less.
 */
public final class Prerequisites {

  private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();

  private Prerequisites() {
  }

  /** Whether a missing prerequisite fails the run: the environment variable {@code CI} is {@code true}. */
  public static boolean strict() {
    return "true".equalsIgnoreCase(System.getenv("CI"));
  }

  /**
   * Returns when {@code present}; otherwise fails (under {@code CI=true}) or skips the calling test.
   *
   * @param missing what is missing, e.g. {@code "nginx"}
   * @param howToGet how to get it, e.g. {@code "apt-get install nginx-light"}
   */
  public static void require(boolean present, String missing, String howToGet) {
    if (present) {
      return;
    }
    String line = missing + " not found: " + howToGet;
    if (strict()) {
      throw new AssertionError(line + " (CI=true: a missing prerequisite fails the run)");
    }
    report(line);
    Assumptions.abort(line);
  }

  /** Prints {@code line} to standard error as a skip notice, once per JVM however many tests it concerns. */
  public static void report(String line) {
    if (REPORTED.add(line)) {
      System.err.println("[SKIPPED] " + line);
    }
  }
}
