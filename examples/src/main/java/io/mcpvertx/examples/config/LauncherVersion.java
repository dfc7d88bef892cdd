package io.mcpvertx.examples.config;

import io.mcpvertx.protocol.ProtocolVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Properties;
import java.util.stream.Collectors;
import picocli.CommandLine;

/**
 * What {@code --version} prints: the version of this build and the MCP revisions it serves, the session ones (over
 * {@code initialize}) and the stateless one ({@code server/discover}).
 */
public final class LauncherVersion implements CommandLine.IVersionProvider {

  /** The project version this jar was built from ({@code version.properties}, filled in by the build). */
  public static String version() {
    try (InputStream in = LauncherVersion.class.getResourceAsStream("/io/mcpvertx/examples/version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String[] getVersion() {
    String sessions = ProtocolVersion.sessionVersions().stream().map(ProtocolVersion::id)
        .collect(Collectors.joining(", "));
    String stateless = Arrays.stream(ProtocolVersion.values())
        .filter(v -> !ProtocolVersion.sessionVersions().contains(v)).map(ProtocolVersion::id)
        .collect(Collectors.joining(", "));
    return new String[] {
        "mcp-vertx examples " + version(),
        "MCP revisions: " + sessions + " (sessions, initialize); " + stateless + " (stateless, server/discover)",
        "Java " + System.getProperty("java.version")};
  }
}
