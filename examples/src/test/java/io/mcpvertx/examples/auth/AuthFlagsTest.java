package io.mcpvertx.examples.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.mcpvertx.verticles.http.auth.AuthMode;
import io.mcpvertx.verticles.http.auth.McpAuthOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class AuthFlagsTest {

  private static AuthFlags parse(String... args) {
    AuthFlags flags = new AuthFlags();
    try {
      new CommandLine(flags).parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return flags;
  }

  @Test
  void isOffWithoutAnIssuer() {
    assertFalse(parse().options(Map.of(), 3000).isEnabled());
  }

  @Test
  void readsFlagsAndDefaultsTheResourceToTheLocalEndpoint() {
    McpAuthOptions options = parse("--auth-issuer", "https://as.example.test", "--auth-scopes", "a b",
        "--auth-method-scope", "tools/call=c", "--auth-tool-scope", "admin=d,e", "--auth-as-metadata")
        .options(Map.of(), 3000);
    assertEquals(AuthMode.JWT, options.getMode());
    assertEquals("http://127.0.0.1:3000/mcp", options.getResource());
    assertEquals(List.of("a", "b"), options.getRequiredScopes());
    assertEquals(Map.of("tools/call", List.of("c")), options.getMethodScopes());
    assertEquals(Map.of("admin", List.of("d", "e")), options.getToolScopes());
    assertEquals(true, options.isServeAuthorizationServerMetadata());
    options.validate();
  }

  @Test
  void takesTheEnvironmentWhereNoFlagIsGivenAndTheSecretOnlyFromIt() {
    McpAuthOptions options = parse("--auth-mode", "introspection").options(Map.of(
        "MCP_AUTH_ISSUER", "https://as.example.test", "MCP_AUTH_RESOURCE", "https://mcp.example.test/mcp",
        "MCP_AUTH_CLIENT_ID", "rs", "MCP_AUTH_CLIENT_SECRET", "s3cret", "MCP_AUTH_MODE", "jwt"), 0);
    assertEquals(AuthMode.INTROSPECTION, options.getMode());
    assertEquals("https://mcp.example.test/mcp", options.getResource());
    assertEquals("s3cret", options.getClientSecret());
    options.validate();
  }

  @Test
  void needsAResourceOnARandomPort() {
    assertThrows(IllegalArgumentException.class, () -> parse("--auth-issuer", "https://as.example.test")
        .options(Map.of(), 0));
    assertThrows(IllegalArgumentException.class, () -> parse("--auth-client-secret", "leaked"));
  }
}
