package io.mcpvertx.examples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The official TypeScript SDK client against the packaged hello example run as an OAuth-protected resource, with
 * a real authorization server (mock-oauth2-server) in this JVM: the SDK discovers everything from the 401
 * challenge and gets a client_credentials token itself; a pre-obtained token works too; the 2025-03-26 metadata
 * mirror is served; a session is refused to every principal but its owner. The script is
 * {@code e2e/oauth-client.mjs}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TypeScriptSdkOAuthIT {

  @Test
  void typeScriptSdkClientAuthorizesWithClientCredentialsAndKeepsToItsOwnSessions() throws Exception {
    Path e2e = NodeScripts.e2eDir();
    NodeScripts.installDependencies(e2e);
    int port = freePort();
    String resource = "http://127.0.0.1:" + port + "/mcp";
    // Every token of issuer "mcp" is for this server, with the scopes it asks for; the subject of a
    // client_credentials token is the client id.
    MockOAuth2Server authorizationServer = new MockOAuth2Server(new OAuth2Config(false, null, null, false,
        new OAuth2TokenProvider(), Set.of(new DefaultOAuth2TokenCallback("mcp", "unused", "JWT", List.of(resource),
            Map.of("scope", "mcp:basic mcp:tools"), 300))));
    authorizationServer.start();
    String issuer = authorizationServer.issuerUrl("mcp").toString();
    try (HttpExample server = HttpExample.start("hello", port, List.of("--auth-issuer", issuer,
        "--auth-scopes", "mcp:basic", "--auth-method-scope", "tools/call=mcp:tools", "--auth-as-metadata"))) {
      NodeScripts.Result run = NodeScripts.run(e2e, List.of("node", "oauth-client.mjs", server.url(), issuer), 180);
      String details = run.output() + "\n--- server output (last lines) ---\n"
          + new NodeScripts.Result(0, server.output()).tail(30);
      System.out.println(run.output());
      assertEquals(0, run.exitCode(), details);
      assertTrue(run.output().contains("typescript-sdk oauth: all checks passed"), details);
    } finally {
      authorizationServer.shutdown();
    }
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
