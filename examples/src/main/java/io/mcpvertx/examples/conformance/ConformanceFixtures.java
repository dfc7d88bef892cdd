package io.mcpvertx.examples.conformance;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.ServerInfo;
import io.vertx.core.Vertx;

/**
 * The tools, resources, prompts and completions that the server scenarios of the MCP conformance suite
 * ({@code @modelcontextprotocol/conformance} 0.1.16 and 0.2.0-alpha.12) call, with the names, texts and payloads
 * those scenarios look for. One server serves both wires: the session-based 2025 generation and the stateless
 * 2026-07-28 one; every handler is written once.
 *
 * <pre>{@code
 * McpServer server = ConformanceFixtures.register(McpServer.create(vertx, ConformanceFixtures.options()));
 * }</pre>
 *
 * <p>The suite checks no server name, version or instructions; {@link #options()} uses the reference server's
 * name so reports read the same.
 */
public final class ConformanceFixtures {

  /** A 1x1 red PNG, base64-encoded: the image of every image fixture. */
  public static final String TEST_IMAGE_BASE64 =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

  /** A WAV header with two bytes of silence, base64-encoded: the audio fixture. */
  public static final String TEST_AUDIO_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

  /** The logger name on the log messages the fixtures send. */
  public static final String LOGGER = "conformance-test-server";

  private ConformanceFixtures() {
  }

  /** Server options for a conformance server: the reference server's name and version. */
  public static McpServerOptions options() {
    return new McpServerOptions().setServerInfo(ServerInfo.of("mcp-conformance-test-server", "1.0.0"));
  }

  /** A server with {@link #options()} and every fixture registered. */
  public static McpServer create(Vertx vertx) {
    return register(McpServer.create(vertx, options()));
  }

  /**
   * Registers every fixture on {@code server}: the tools, the resources and template, the prompts and the
   * completions (which also make the server declare the {@code completions} capability), plus the tool our own
   * end-to-end tests use to drop and resume a stream ({@code test_streaming_progress}).
   *
   * @return {@code server}
   */
  public static McpServer register(McpServer server) {
    ContentTools.register(server);
    StreamingTools.register(server);
    ClientRequestTools.register(server);
    ConformanceResources.register(server);
    ConformancePrompts.register(server);
    E2eTools.register(server);
    StatelessDiagnosticTools.register(server);
    InputRequiredFixtures.register(server);
    TaskFixtures.register(server);
    return server;
  }
}
