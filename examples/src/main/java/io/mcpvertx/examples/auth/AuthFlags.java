package io.mcpvertx.examples.auth;

import io.mcpvertx.examples.config.LauncherFlags;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.verticles.http.auth.AuthMode;
import io.mcpvertx.verticles.http.auth.McpAuthOptions;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import picocli.CommandLine.Option;

/**
 * Authorization of an example served over HTTP, from command-line flags (which win), environment variables, and
 * the {@code auth} object of a config file ({@link McpAuthOptions} JSON), in that
 * order. Without an issuer, authorization is off. The client secret is read from the environment (or the file)
 * only, so it never shows in a process list.
 *
 * Parsed as a part of {@link LauncherFlags}; {@code --help} lists each flag.
 *
 * <pre>
 * --auth-issuer URL            MCP_AUTH_ISSUER         turns authorization on
 * --auth-mode jwt|introspection MCP_AUTH_MODE          jwt unless given
 * --auth-resource URL          MCP_AUTH_RESOURCE       the audience; default http://127.0.0.1:PORT/mcp
 * --auth-scopes "a b"          MCP_AUTH_SCOPES         scopes every request needs
 * --auth-method-scope M=a,b    (repeatable)            scopes a JSON-RPC method needs
 * --auth-tool-scope T=a,b      (repeatable)            scopes a tool needs
 * --auth-client-id ID          MCP_AUTH_CLIENT_ID      for introspection
 *                              MCP_AUTH_CLIENT_SECRET  for introspection
 * --auth-as-metadata           MCP_AUTH_AS_METADATA    mirror the authorization server's metadata (2025-03-26)
 * </pre>
 */
public final class AuthFlags {

  private static final String ONLY_HTTP = "HTTP only (over stdio, credentials come from the environment)";

  @Option(names = "--auth-issuer", paramLabel = "URL", description = {"The OAuth issuer whose tokens are "
      + "accepted: turns authorization on; " + ONLY_HTTP + ".", "env: MCP_AUTH_ISSUER; config: auth.issuer; "
      + "default: no authorization"})
  private String issuer;

  @Option(names = "--auth-mode", paramLabel = "jwt|introspection", description = {"How tokens are checked.",
      "env: MCP_AUTH_MODE; config: auth.mode; default: jwt"})
  private String mode;

  @Option(names = "--auth-resource", paramLabel = "URL", description = {"This server's resource URL: the audience "
      + "tokens must name.", "env: MCP_AUTH_RESOURCE; config: auth.resource; default: http://127.0.0.1:PORT/mcp"})
  private String resource;

  @Option(names = "--auth-scopes", paramLabel = "\"A B\"", description = {"Scopes every request needs.",
      "env: MCP_AUTH_SCOPES; config: auth.requiredScopes; default: none"})
  private String scopes;

  @Option(names = "--auth-method-scope", paramLabel = "METHOD=A,B", description = {"Scopes a JSON-RPC method needs "
      + "(repeatable).", "env: -; config: auth.methodScopes; default: none"})
  private List<String> methodScopes = new ArrayList<>();

  @Option(names = "--auth-tool-scope", paramLabel = "TOOL=A,B", description = {"Scopes a tool needs (repeatable).",
      "env: -; config: auth.toolScopes; default: none"})
  private List<String> toolScopes = new ArrayList<>();

  @Option(names = "--auth-client-id", paramLabel = "ID", description = {"The client id for introspection (its "
      + "secret: env MCP_AUTH_CLIENT_SECRET or config auth.clientSecret, never a flag).",
      "env: MCP_AUTH_CLIENT_ID; config: auth.clientId; default: none"})
  private String clientId;

  @Option(names = "--auth-as-metadata", description = {"Mirror the authorization server's metadata (for "
      + "2025-03-26 clients).", "env: MCP_AUTH_AS_METADATA=true; config: auth.serveAuthorizationServerMetadata; "
      + "default: false"})
  private boolean asMetadata;

  /** The first authorization flag given, for messages; null when none was. */
  public String firstFlagGiven() {
    if (issuer != null) {
      return "--auth-issuer";
    }
    if (mode != null || resource != null || scopes != null || clientId != null || asMetadata
        || !methodScopes.isEmpty() || !toolScopes.isEmpty()) {
      return "--auth-...";
    }
    return null;
  }

  /** The options for a server on {@code port}: off unless an issuer was given by flag or environment. */
  public McpAuthOptions options(Map<String, String> env, int port) {
    return options(env, port, new McpAuthOptions());
  }

  /**
   * The options for a server on {@code port}: {@code base} (from a config file, say) with what the flags and the
   * environment give on top, flags first. Off unless an issuer was given by any of them.
   */
  public McpAuthOptions options(Map<String, String> env, int port, McpAuthOptions base) {
    McpAuthOptions options = new McpAuthOptions(base);
    String iss = or(issuer, env.get("MCP_AUTH_ISSUER"));
    if (iss != null) {
      options.setIssuer(iss);
    }
    if (options.getIssuer() == null) {
      return new McpAuthOptions();
    }
    if (!options.isEnabled()) {
      options.setMode(AuthMode.JWT); // an issuer turns authorization on
    }
    String m = or(mode, env.get("MCP_AUTH_MODE"));
    if (m != null) {
      try {
        options.setMode(AuthMode.valueOf(m.trim().toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException((mode != null ? "--auth-mode" : "MCP_AUTH_MODE") + " is jwt or "
            + "introspection, not \"" + m + "\"", e);
      }
    }
    String res = or(resource, env.get("MCP_AUTH_RESOURCE"));
    if (res != null) {
      options.setResource(res);
    } else if (options.getResource() == null) {
      if (port == 0) {
        throw new IllegalArgumentException("--auth-resource is needed with a random port");
      }
      options.setResource("http://127.0.0.1:" + port + "/mcp");
    }
    String id = or(clientId, env.get("MCP_AUTH_CLIENT_ID"));
    if (id != null) {
      options.setClientId(id);
    }
    if (env.get("MCP_AUTH_CLIENT_SECRET") != null) {
      options.setClientSecret(env.get("MCP_AUTH_CLIENT_SECRET"));
    }
    if (asMetadata || "true".equals(env.get("MCP_AUTH_AS_METADATA"))) {
      options.setServeAuthorizationServerMetadata(true);
    }
    String required = or(scopes, env.get("MCP_AUTH_SCOPES"));
    if (required != null && !required.isBlank()) {
      options.setRequiredScopes(Arrays.asList(required.trim().split("\\s+")));
    }
    methodScopes.forEach(entry -> options.addMethodScopes(key(entry), values(entry)));
    toolScopes.forEach(entry -> options.addToolScopes(key(entry), values(entry)));
    return options;
  }

  /** Adds {@code whoami}, which answers with the caller's principal: what every handler sees in its context. */
  public static McpServer addWhoAmI(McpServer server) {
    return server.tool(Tool.builder("whoami").description("Names the authenticated caller and its scopes").build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text(ctx.principal()
            .map(p -> p.issuer() + " " + p.subject() + " " + String.join(" ", new TreeSet<>(p.scopes())))
            .orElse("anonymous"))));
  }

  private static String key(String entry) {
    int eq = entry.indexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException("expected NAME=SCOPE[,SCOPE]: " + entry);
    }
    return entry.substring(0, eq);
  }

  private static List<String> values(String entry) {
    return Arrays.asList(entry.substring(entry.indexOf('=') + 1).split(","));
  }

  private static String or(String first, String second) {
    return first != null ? first : second;
  }
}
