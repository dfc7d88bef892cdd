package io.mcpvertx.examples;

import io.mcpvertx.examples.auth.AuthFlags;
import io.mcpvertx.examples.config.ExampleConfig;
import io.mcpvertx.examples.config.ExampleStores;
import io.mcpvertx.examples.conformance.ConformanceFixtures;
import io.mcpvertx.examples.hello.HelloServer;
import io.mcpvertx.examples.verticle.ClockServer;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.verticles.http.McpHttpServer;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.http.auth.McpAuthOptions;
import io.mcpvertx.verticles.stdio.StdioServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Locale;

/**
 * Entry point of the examples jar:
 * {@code java -jar mcp-vertx-examples.jar [hello|clock|conformance] [--http [port]] [--store memory|redis]
 * [--redis-url URL] [--config FILE] [--auth-...]}. Without {@code --http} (or an {@code http} object in the config
 * file) the example is served over stdio; with it, over Streamable HTTP on 127.0.0.1 (port 3000 unless given).
 * Flags beat the environment ({@code MCP_STORE}, {@code MCP_REDIS_URL}, {@code MCP_CONFIG}, {@code MCP_AUTH_*}),
 * which beats the config file, which beats the defaults: see {@link ExampleConfig}.
 *
 * <p>With {@code --store redis}, tasks, SSE events and sessions live in Redis, so several instances behind one
 * address serve the same clients: any of them resumes any stream, serves any session and answers for any task.
 * Over HTTP, an OAuth issuer makes the example an OAuth-protected resource and adds the {@code whoami} tool; see
 * {@link AuthFlags}. Over stdio there is no OAuth: as the MCP specification says, a stdio server takes its
 * credentials from its environment.
 */
public final class Main {

  private static final List<String> EXAMPLES = List.of("hello", "clock", "conformance");

  private Main() {
  }

  public static void main(String[] args) {
    ExampleConfig config;
    try {
      config = ExampleConfig.load(args, System.getenv());
      if (!EXAMPLES.contains(config.example())) {
        throw new IllegalArgumentException("Unknown example '" + config.example() + "'; choose hello, clock or "
            + "conformance");
      }
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    Vertx vertx = Vertx.vertx();
    ExampleStores.create(vertx, config).onComplete(stores -> {
      if (stores.failed()) {
        System.err.println("Could not start: " + stores.cause().getMessage());
        vertx.close().onComplete(v -> System.exit(1));
      } else if (config.http()) {
        serveHttp(vertx, config, stores.result());
      } else {
        serveStdio(vertx, config, stores.result());
      }
    });
  }

  /**
   * The example's server. The conformance example keeps its tasks in the configured store; hello and clock have no
   * task tools, so the store would hold nothing.
   */
  private static Future<McpServer> example(Vertx vertx, ExampleConfig config, TaskStore tasks) {
    return switch (config.example()) {
      case "clock" -> ClockServer.start(vertx);
      case "conformance" -> Future.succeededFuture(ConformanceFixtures.register(McpServer.create(vertx,
          ConformanceFixtures.options().setTaskOptions(config.tasks()), tasks)));
      default -> Future.succeededFuture(HelloServer.create(vertx));
    };
  }

  private static void serveStdio(Vertx vertx, ExampleConfig config, ExampleStores stores) {
    example(vertx, config, stores.tasks())
        .compose(s -> StdioServer.create(vertx, s).serve())
        .onComplete(done -> {
          if (done.failed()) {
            System.err.println(done.cause().getMessage());
          }
          stores.close().onComplete(v -> vertx.close());
        });
  }

  private static void serveHttp(Vertx vertx, ExampleConfig config, ExampleStores stores) {
    McpHttpServerOptions options = config.httpOptions();
    Future<McpServer> server = example(vertx, config, stores.tasks());
    McpAuthOptions auth = options.getAuth();
    if (auth.isEnabled()) {
      server = server.map(AuthFlags::addWhoAmI);
      System.err.println("OAuth: tokens of " + auth.getIssuer() + " for " + auth.getResource() + " ("
          + auth.getMode() + ")");
    }
    server.compose(s -> McpHttpServer.create(vertx, s, options, stores.http()).listen(2))
        .onSuccess(http -> System.err.println("MCP server listening on http://" + options.getHost() + ":"
            + http.actualPort() + options.getPath() + " (store: " + config.store().name().toLowerCase(Locale.ROOT)
            + ")"))
        .onFailure(e -> {
          System.err.println("Could not start: " + e.getMessage());
          stores.close().onComplete(v -> vertx.close().onComplete(c -> System.exit(1)));
        });
  }
}
