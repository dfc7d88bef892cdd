package io.mcpvertx.examples.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.protocol.ProtocolVersion;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The launcher explains itself: help for every flag, the version, and errors that name the flag and the fix. */
class LauncherFlagsTest {

  private static String help() {
    StringWriter out = new StringWriter();
    new CommandLine(new LauncherFlags()).usage(new PrintWriter(out));
    return out.toString();
  }

  private static void assertMessage(String expected, String[] args, Map<String, String> env) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ExampleConfig.load(args, env));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }

  @Test
  void helpNamesTheEnvironmentVariableTheConfigKeyAndTheDefaultOfEveryFlag() {
    CommandLine line = new CommandLine(new LauncherFlags());
    List<OptionSpec> options = line.getCommandSpec().options().stream()
        .filter(o -> !o.usageHelp() && !o.versionHelp()).toList();
    assertTrue(options.size() >= 20, "every flag, the auth ones included: " + options.size());
    for (OptionSpec option : options) {
      String description = String.join(" ", option.description());
      for (String part : List.of("env: ", "default: ")) {
        assertTrue(description.contains(part), option.longestName() + " says no " + part + description);
      }
      if (!option.longestName().equals("--config")) {
        assertTrue(description.contains("config: "), option.longestName() + " names no config key");
      }
    }
    String help = help();
    for (String expected : List.of("--http", "--store", "MCP_STORE", "MCP_REDIS_URL", "redis.connectionStrings",
        "--auth-issuer", "MCP_AUTH_ISSUER", "MCP_CLUSTER_MEMBERS", "MCP_SHUTDOWN_TIMEOUT_MS", "--version",
        "hello (default), clock or conformance")) {
      assertTrue(help.contains(expected), "help lacks " + expected + ":\n" + help);
    }
    assertTrue(LauncherFlags.parse(new String[] {"--help"}).helpRequested());
    assertTrue(LauncherFlags.parse(new String[] {"conformance", "--version"}).versionRequested());
  }

  @Test
  void versionNamesTheBuildAndEveryRevisionServed() {
    String[] lines = new LauncherVersion().getVersion();
    String version = String.join("\n", lines);
    assertFalse(LauncherVersion.version().contains("$") || LauncherVersion.version().equals("unknown"), version);
    assertTrue(lines[0].endsWith(LauncherVersion.version()), version);
    for (ProtocolVersion revision : ProtocolVersion.values()) {
      assertTrue(version.contains(revision.id()), version);
    }
  }

  @Test
  void httpTakesAPortOnlyWhenOneFollows() {
    ExampleConfig config = ExampleConfig.load(new String[] {"--http", "conformance"}, Map.of());
    assertEquals("conformance", config.example());
    assertTrue(config.http());
    assertEquals(3000, config.httpOptions().getPort());
    assertEquals(0, ExampleConfig.load(new String[] {"--http", "0"}, Map.of()).httpOptions().getPort());
    assertMessage("--http takes a port from 0 to 65535", new String[] {"--http", "70000"}, Map.of());
  }

  @Test
  void anUnknownFlagIsNamedWithTheNearestKnownOne() {
    assertMessage("unknown flag --redis-uri (did you mean --redis-url?)", new String[] {"--redis-uri", "x"},
        Map.of());
    assertMessage("--help lists every flag", new String[] {"--nope"}, Map.of());
    assertMessage("unexpected argument", new String[] {"hello", "clock"}, Map.of());
    assertMessage("unknown example 'helo'; choose hello, clock or conformance", new String[] {"helo"}, Map.of());
    assertMessage("--cluster-port needs a value", new String[] {"--cluster-port"}, Map.of());
  }

  @Test
  void aMalformedValueIsNamedByWhereItCameFrom() {
    assertMessage("--cluster-port takes a whole number, not \"five\": e.g. --cluster-port 5701",
        new String[] {"--cluster-port", "five"}, Map.of());
    assertMessage("MCP_LEASE_TTL_MS takes a whole number, not \"10s\": e.g. MCP_LEASE_TTL_MS=10000",
        new String[0], Map.of("MCP_LEASE_TTL_MS", "10s"));
    assertMessage("--shutdown-timeout-ms takes a whole number", new String[] {"--shutdown-timeout-ms", "1.5"},
        Map.of());
    assertMessage("unknown store \"disk\" (from MCP_STORE)", new String[0], Map.of("MCP_STORE", "disk"));
    assertMessage("--auth-mode is jwt or introspection, not \"oidc\"",
        new String[] {"--http", "--auth-issuer", "https://as", "--auth-mode", "oidc"}, Map.of());
  }

  @Test
  void contradictoryFlagsAreRefusedWithTheFix() {
    assertMessage("--redis-url is for the Redis store, and the store is memory: add --store redis",
        new String[] {"--redis-url", "redis://localhost:6379"}, Map.of());
    assertMessage("drop --http", new String[] {"clock", "--cluster", "--worker-only", "--http"}, Map.of());
    assertMessage("--auth-issuer protects the HTTP transport", new String[] {"--auth-issuer", "https://as"},
        Map.of());
    // The environment is often ambient: an issuer there does not make a stdio server fail.
    assertFalse(ExampleConfig.load(new String[0], Map.of("MCP_AUTH_ISSUER", "https://as")).http());
    assertEquals(ExampleConfig.Store.REDIS, ExampleConfig.load(new String[] {"--redis-url", "redis://r:6379"},
        Map.of("MCP_STORE", "redis")).store());
  }
}
