package io.mcpvertx.examples;

import io.mcpvertx.examples.auth.AuthFlags;
import io.mcpvertx.examples.conformance.ConformanceFixtures;
import io.mcpvertx.examples.hello.HelloServer;
import io.mcpvertx.examples.verticle.ClockServer;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.verticles.http.McpHttpServer;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.http.auth.McpAuthOptions;
import io.mcpvertx.verticles.stdio.StdioServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * Entry point of the examples jar:
 * {@code java -jar mcp-vertx-examples.jar [hello|clock|conformance] [--http [port]] [--auth-...]}. Without
 * {@code --http} the example is served over stdio; with it, over Streamable HTTP on 127.0.0.1 (port 3000 unless
 * given). Over HTTP, {@code --auth-issuer} (or {@code MCP_AUTH_ISSUER}) makes it an OAuth-protected resource and adds
 * the {@code whoami} tool; see {@link AuthFlags}. Over stdio there is no OAuth: as the MCP specification says, a
 * stdio server takes its credentials from its environment.
 */
public final class Main {

  private Main() {
  }

  public static void main(String[] args) {
    String example = "hello";
    Integer httpPort = null;
    AuthFlags authFlags = new AuthFlags();
    for (int i = 0; i < args.length; i++) {
      int used = authFlags.take(args, i);
      if (used >= 0) {
        i = used;
      } else if (args[i].equals("--http")) {
        httpPort = i + 1 < args.length && args[i + 1].matches("\\d+") ? Integer.parseInt(args[++i]) : 3000;
      } else {
        example = args[i];
      }
    }
    Vertx vertx = Vertx.vertx();
    Future<McpServer> server = switch (example) {
      case "hello" -> Future.succeededFuture(HelloServer.create(vertx));
      case "clock" -> ClockServer.start(vertx);
      case "conformance" -> Future.succeededFuture(ConformanceFixtures.create(vertx));
      default -> Future.failedFuture("Unknown example '" + example + "'; choose hello, clock or conformance");
    };
    if (httpPort == null) {
      server.compose(s -> StdioServer.create(vertx, s).serve()).onComplete(done -> {
        if (done.failed()) {
          System.err.println(done.cause().getMessage());
        }
        vertx.close();
      });
      return;
    }
    int port = httpPort;
    McpAuthOptions auth;
    try {
      auth = authFlags.options(System.getenv(), port);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      vertx.close().onComplete(v -> System.exit(2));
      return;
    }
    if (auth.isEnabled()) {
      server = server.map(AuthFlags::addWhoAmI);
      System.err.println("OAuth: tokens of " + auth.getIssuer() + " for " + auth.getResource() + " ("
          + auth.getMode() + ")");
    }
    server.compose(s -> McpHttpServer.create(vertx, s, new McpHttpServerOptions().setPort(port).setAuth(auth))
            .listen(2))
        .onSuccess(http -> System.err.println("MCP server listening on http://127.0.0.1:"
            + http.actualPort() + "/mcp"))
        .onFailure(e -> {
          System.err.println("Could not start: " + e.getMessage());
          vertx.close().onComplete(v -> System.exit(1));
        });
  }
}
