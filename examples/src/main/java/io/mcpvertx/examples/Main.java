package io.mcpvertx.examples;

import io.mcpvertx.cluster.McpCluster;
import io.mcpvertx.examples.auth.AuthFlags;
import io.mcpvertx.examples.config.ExampleConfig;
import io.mcpvertx.examples.config.ExampleMetrics;
import io.mcpvertx.examples.config.ExampleStores;
import io.mcpvertx.examples.config.LauncherFlags;
import io.mcpvertx.examples.conformance.ConformanceFixtures;
import io.mcpvertx.examples.hello.HelloServer;
import io.mcpvertx.examples.verticle.ClockServer;
import io.mcpvertx.examples.verticle.ClockToolVerticle;
import io.mcpvertx.examples.verticle.ClusterRoles;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.server.ServerInfo;
import io.mcpvertx.server.StatelessOptions;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.verticles.http.McpHttpServer;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.http.auth.McpAuthOptions;
import io.mcpvertx.verticles.stdio.StdioServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * Entry point of the examples jar:
 * {@code java -jar mcp-vertx-examples.jar [hello|clock|conformance] [--http [port]] [--store memory|redis]
 * [--redis-url URL] [--config FILE] [--auth-...] [--cluster ...]}; {@code --help} lists every flag with its
 * environment variable, config key and default ({@link LauncherFlags}), {@code --version} the version and the MCP
 * revisions served. A wrong flag, value or combination exits with status 2 and a message naming the flag. Without {@code --http} (or an {@code http}
 * object in the config file) the example is served over stdio; with it, over Streamable HTTP on 127.0.0.1 (port
 * 3000 unless given). Flags beat the environment ({@code MCP_STORE}, {@code MCP_REDIS_URL}, {@code MCP_CONFIG},
 * {@code MCP_AUTH_*}, {@code MCP_CLUSTER_*}), which beats the config file, which beats the defaults: see
 * {@link ExampleConfig}.
 *
 * <p>With {@code --store redis}, tasks, SSE events and sessions live in Redis, so several instances behind one
 * address serve the same clients. With {@code --cluster} as well, the instances form a cluster (embedded Hazelcast,
 * see {@link McpCluster}): each session runs on one instance and is reached from all, a dead instance's sessions and
 * tasks are taken over, and tool verticles of {@code --worker-only} members are callable from every server (see
 * {@code docs/cluster.md}). Over HTTP, an OAuth issuer makes the example an OAuth-protected resource and adds the
 * {@code whoami} tool; see {@link AuthFlags}. Over stdio there is no OAuth: as the MCP specification says, a stdio
 * server takes its credentials from its environment.
 *
 * <p>An HTTP server stops gracefully on SIGTERM or SIGINT: it takes no new requests, lets those in flight finish
 * (and the task handlers running here) up to {@code --shutdown-timeout-ms}, hands its sessions over, releases its
 * lease and leaves the cluster.
 */
public final class Main {

  private Main() {
  }

  public static void main(String[] args) {
    ExampleConfig config;
    try {
      LauncherFlags flags = LauncherFlags.parse(args);
      CommandLine line = new CommandLine(flags);
      if (flags.helpRequested()) {
        line.usage(System.out);
        return;
      }
      if (flags.versionRequested()) {
        line.printVersionHelp(System.out);
        return;
      }
      config = ExampleConfig.load(flags, System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("mcp-vertx-examples: " + e.getMessage());
      System.exit(2);
      return;
    }
    ExampleMetrics metrics = ExampleMetrics.of(config);
    Future<Vertx> started = metrics.vertx(config);
    started.onFailure(e -> {
      System.err.println("Could not join the cluster: " + e.getMessage());
      System.exit(1);
    }).onSuccess(vertx -> {
      if (config.clustered()) {
        System.err.println("Joined cluster " + config.cluster().getClusterName() + " as member "
            + McpCluster.nodeId(vertx) + " (" + config.cluster().getHost() + ":" + config.cluster().getPort() + ")");
      }
      if (config.workerOnly()) {
        serveWorker(vertx);
        return;
      }
      ExampleStores.create(vertx, config).onComplete(stores -> {
        if (stores.failed()) {
          System.err.println("Could not start: " + stores.cause().getMessage());
          vertx.close().onComplete(v -> System.exit(1));
        } else if (config.http()) {
          serveHttp(vertx, config, stores.result(), metrics);
        } else {
          serveStdio(vertx, config, stores.result(), metrics);
        }
      });
    });
  }

  /**
   * The example's server, keeping its tasks, SSE events and sessions in the configured stores. Clustered, the
   * server belongs to {@code instance}, and lists and calls the tool verticles of every member.
   */
  private static Future<McpServer> example(Vertx vertx, ExampleConfig config, McpStores stores,
      McpInstance instance, StatelessOptions stateless) {
    if (!config.clustered()) {
      McpServerOptions options = ConformanceFixtures.options().setTaskOptions(config.tasks())
          .setStatelessOptions(stateless);
      // Alone on Redis, the conformance server (the example with task tools) records its tasks under the lease.
      return switch (config.example()) {
        case "clock" -> ClockServer.start(vertx, stores);
        case "conformance" -> Future.succeededFuture(ConformanceFixtures.register(instance == null
            ? McpServer.create(vertx, options, stores) : McpServer.create(vertx, options, stores, instance)));
        default -> Future.succeededFuture(HelloServer.create(vertx, stores));
      };
    }
    return switch (config.example()) {
      case "clock" -> ClusterRoles.server(vertx, McpServer.create(vertx,
              new McpServerOptions().setServerInfo(ServerInfo.of("clock", "1.0.0")).setStatelessOptions(stateless),
              stores, instance))
          .compose(server -> vertx.deployVerticle(new ClockToolVerticle()).map(server));
      case "conformance" -> ClusterRoles.server(vertx, ConformanceFixtures.register(McpServer.create(vertx,
          ConformanceFixtures.options().setTaskOptions(config.tasks()).setStatelessOptions(stateless), stores,
          instance)));
      default -> Future.failedFuture(new IllegalArgumentException("a clustered server runs the conformance or the "
          + "clock example"));
    };
  }

  private static void serveStdio(Vertx vertx, ExampleConfig config, ExampleStores stores, ExampleMetrics metrics) {
    example(vertx, config, metrics.stores(stores.stores()), null, config.stateless())
        .compose(s -> metrics.serve(vertx, s))
        .compose(s -> StdioServer.create(vertx, s).serve())
        .onComplete(done -> {
          if (done.failed()) {
            System.err.println(done.cause().getMessage());
          }
          stores.close().onComplete(v -> vertx.close());
        });
  }

  private static void serveHttp(Vertx vertx, ExampleConfig config, ExampleStores stores, ExampleMetrics metrics) {
    McpHttpServerOptions options = config.httpOptions();
    McpStores served = metrics.stores(stores.stores());
    // On Redis an instance holds a lease even alone: a crashed instance's tasks are then settled by whichever
    // instance (this one restarted, say) runs on the same Redis. Without a cluster it owns no sessions.
    McpInstance instance = config.clustered()
        ? McpInstance.create(vertx, served.leases(), config.instance())
        : config.store() == ExampleConfig.Store.REDIS
            ? McpInstance.create(vertx, served.leases(), config.instance().setOwnsSessions(false))
            : null;
    // Every instance must verify the requestState another signed: a cluster without configured keys shares one.
    Future<StatelessOptions> stateless = instance == null || !config.stateless().getRequestStateKeys().isEmpty()
        ? Future.succeededFuture(config.stateless())
        : stores.sharedRequestStateKey(vertx, config.redis().getKeyPrefix())
            .map(key -> config.stateless().setRequestStateKeys(List.of(key)));
    Future<McpServer> server = (instance == null ? Future.<Void>succeededFuture() : instance.start())
        .compose(v -> stateless)
        .compose(statelessOptions -> example(vertx, config, served, instance, statelessOptions))
        .compose(s -> metrics.serve(vertx, s));
    McpAuthOptions auth = options.getAuth();
    if (auth.isEnabled()) {
      server = server.map(AuthFlags::addWhoAmI);
      System.err.println("OAuth: tokens of " + auth.getIssuer() + " for " + auth.getResource() + " ("
          + auth.getMode() + ")");
    }
    server.compose(s -> {
      McpHttpServer http = McpHttpServer.create(vertx, s, options);
      if (config.clustered()) {
        http.addReadinessCheck("cluster", () -> McpCluster.joined(vertx));
        http.addReadinessCheck("leaseStore", () -> served.leases().ping());
      }
      return http.listen(2).map(listening -> {
        onShutdown(() -> shutdown(vertx, config, s, http, instance, stores));
        return listening;
      });
    })
        .onSuccess(http -> System.err.println("MCP server listening on http://" + options.getHost() + ":"
            + http.actualPort() + options.getPath() + " (store: " + config.store().name().toLowerCase(Locale.ROOT)
            + (instance == null ? "" : ", instance " + instance.id()) + ")"))
        .onFailure(e -> {
          System.err.println("Could not start: " + e.getMessage());
          stores.close().onComplete(v -> vertx.close().onComplete(c -> System.exit(1)));
        });
  }

  /** A member that serves its tool verticles to the cluster's servers, and nothing else. */
  private static void serveWorker(Vertx vertx) {
    ClusterRoles.worker(vertx)
        .onSuccess(id -> {
          System.err.println("Worker-only member: serving the clock tool verticle to the cluster");
          onShutdown(() -> {
            System.err.println("Shutdown: undeploying the tool verticles and leaving the cluster");
            return vertx.close();
          });
        })
        .onFailure(e -> {
          System.err.println("Could not start: " + e.getMessage());
          vertx.close().onComplete(c -> System.exit(1));
        });
  }

  /**
   * The graceful stop, in order: no new requests, resumable streams handed to other instances and the requests in
   * flight answered (the HTTP server's shutdown, which then hands the sessions over), while the task handlers running
   * here finish, both within the shutdown deadline; then the lease released (what still runs becomes an orphan other instances settle at once), the stores closed, the
   * cluster left.
   */
  private static Future<Void> shutdown(Vertx vertx, ExampleConfig config, McpServer server, McpHttpServer http,
      McpInstance instance, ExampleStores stores) {
    long start = System.currentTimeMillis();
    System.err.println("Shutdown: not ready, no new requests, streams handed over; waiting up to "
        + config.shutdownTimeoutMs() + " ms for the requests and task handlers in flight");
    // Task handlers need no connection: they drain while the endpoint does, within the same deadline.
    Future<Void> tasks = server.drainTasks(config.shutdownTimeoutMs()).onComplete(ar ->
        System.err.println("Shutdown: task handlers done after " + (System.currentTimeMillis() - start) + " ms"));
    return http.shutdown(config.shutdownTimeoutMs())
        .transform(ar -> {
          System.err.println("Shutdown: sessions handed over after " + (System.currentTimeMillis() - start) + " ms");
          return tasks;
        })
        .transform(ar -> {
          System.err.println("Shutdown: releasing the instance lease");
          return instance == null ? Future.<Void>succeededFuture() : instance.close();
        })
        .transform(ar -> stores.close())
        .transform(ar -> {
          System.err.println("Shutdown: leaving" + (config.clustered() ? " the cluster" : ""));
          return vertx.close();
        });
  }

  /** Runs {@code stop} when the JVM is asked to stop, and lets the JVM go once it is done (or after a minute). */
  private static void onShutdown(Supplier<Future<Void>> stop) {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      CountDownLatch done = new CountDownLatch(1);
      stop.get().onComplete(ar -> done.countDown());
      try {
        // The hook thread is not an event loop: waiting here blocks nothing of the server's.
        done.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "mcp-shutdown"));
  }
}
