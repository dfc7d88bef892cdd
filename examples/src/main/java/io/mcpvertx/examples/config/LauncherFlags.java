package io.mcpvertx.examples.config;

import io.mcpvertx.examples.auth.AuthFlags;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Stack;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * The examples jar's command line as it was typed: which flags were given, with their values still as text. Each
 * option's help names its environment variable, its config file key and its default, because {@link ExampleConfig}
 * resolves every setting from the flag, else the environment, else the file, else the default; this class only
 * parses, so a setting absent here is {@code null} and the next source decides.
 */
@Command(name = "java -jar mcp-vertx-examples.jar",
    customSynopsis = "java -jar mcp-vertx-examples.jar [hello|clock|conformance] [--http [PORT]] [FLAG...]",
    versionProvider = LauncherVersion.class, sortOptions = false, usageHelpWidth = 120,
    description = {"Serves one of the example MCP servers over stdio (the default) or Streamable HTTP.",
        "Each setting comes from its flag, else its environment variable, else the config file (--config), "
            + "else its default.", ""},
    footer = {"", "Examples:",
        "  java -jar mcp-vertx-examples.jar                        hello over stdio, for an MCP host",
        "  java -jar mcp-vertx-examples.jar conformance --http 3000",
        "  MCP_STORE=redis MCP_REDIS_URL=redis://localhost:6379 java -jar mcp-vertx-examples.jar conformance --http",
        "  java -jar mcp-vertx-examples.jar conformance --config examples/config/example-config.json",
        "", "The config file is one JSON object; examples/config/example-config.json documents every key."})
public final class LauncherFlags {

  @Parameters(index = "0", arity = "0..1", paramLabel = "EXAMPLE",
      description = "hello (default), clock or conformance.")
  String example;

  @Option(names = "--http", arity = "0..1", paramLabel = "PORT", parameterConsumer = OptionalPort.class,
      description = {"Serve over Streamable HTTP on 127.0.0.1:PORT (0: any free port) instead of stdio.",
          "env: -; config: http (an object: serves HTTP), http.port; default: stdio, port 3000"})
  String http;

  @Option(names = "--metrics", arity = "0..1", paramLabel = "PORT", parameterConsumer = OptionalPort.class,
      description = {"Serve Prometheus metrics on PORT (0: any free port), path /metrics.",
          "env: MCP_METRICS=true, MCP_METRICS_PORT; config: metrics.enabled, metrics (McpMetricsOptions); "
              + "default: off, port 9464"})
  String metrics;

  @Option(names = "--config", paramLabel = "FILE",
      description = {"A JSON config file.", "env: MCP_CONFIG; default: none"})
  String config;

  @Option(names = "--store", paramLabel = "memory|redis",
      description = {"Where tasks, SSE events and sessions are kept.", "env: MCP_STORE; config: store; "
          + "default: memory"})
  String store;

  @Option(names = "--redis-url", paramLabel = "URL",
      description = {"The Redis of --store redis.", "env: MCP_REDIS_URL; config: redis.connectionStrings; "
          + "default: redis://localhost:6379"})
  String redisUrl;

  @Mixin
  AuthFlags auth = new AuthFlags();

  @Option(names = "--cluster",
      description = {"Join a cluster of instances (needs --store redis).", "env: MCP_CLUSTER=true; "
          + "config: cluster.enabled; default: false"})
  boolean cluster;

  @Option(names = "--cluster-host", paramLabel = "HOST",
      description = {"This member's cluster address.", "env: MCP_CLUSTER_HOST; config: cluster.host; "
          + "default: 127.0.0.1"})
  String clusterHost;

  @Option(names = "--cluster-port", paramLabel = "PORT",
      description = {"This member's cluster (Hazelcast) port.", "env: MCP_CLUSTER_PORT; config: cluster.port; "
          + "default: 5701"})
  String clusterPort;

  @Option(names = "--cluster-members", paramLabel = "HOST:PORT,...",
      description = {"The members to join, one port each.", "env: MCP_CLUSTER_MEMBERS; config: cluster.members; "
          + "default: this member only"})
  String clusterMembers;

  @Option(names = "--worker-only",
      description = {"Serve tool verticles to the cluster only: no MCP transport (needs --cluster).",
          "env: MCP_WORKER_ONLY=true; config: cluster.workerOnly; default: false"})
  boolean workerOnly;

  @Option(names = "--instance-id", paramLabel = "ID",
      description = {"A readable name for this instance's lease.", "env: MCP_INSTANCE_ID; config: instance.name; "
          + "default: a random id"})
  String instanceId;

  @Option(names = "--lease-ttl-ms", paramLabel = "MS",
      description = {"How long this instance's lease lasts unrenewed; renewed every fifth of it.",
          "env: MCP_LEASE_TTL_MS; config: instance.leaseTtlMs; default: 10000"})
  String leaseTtlMs;

  @Option(names = "--shutdown-timeout-ms", paramLabel = "MS",
      description = {"How long SIGTERM waits for requests and tasks in flight.", "env: MCP_SHUTDOWN_TIMEOUT_MS; "
          + "config: shutdownTimeoutMs; default: 10000"})
  String shutdownTimeoutMs;

  @Option(names = "--max-connections", paramLabel = "N",
      description = {"How many HTTP connections the endpoint holds at once; one past it is closed.",
          "env: MCP_MAX_CONNECTIONS; config: http.maxConnections; default: 4096"})
  String maxConnections;

  @Option(names = "--connection-idle-timeout-ms", paramLabel = "MS",
      description = {"An HTTP connection with no request in progress, or on which no byte moves, is closed after this.",
          "env: MCP_CONNECTION_IDLE_TIMEOUT_MS; config: http.connectionIdleTimeoutMs; default: 60000"})
  String connectionIdleTimeoutMs;

  @Option(names = "--max-sessions-per-client", paramLabel = "N",
      description = {"How many sessions one principal (or, without authorization, one address) may hold.",
          "env: MCP_MAX_SESSIONS_PER_CLIENT; config: http.maxSessionsPerClient; default: 1000"})
  String maxSessionsPerClient;

  @Option(names = "--request-state-keys", paramLabel = "KEY,...",
      description = {"HMAC keys of the 2026-07-28 requestState, the same on every instance.",
          "env: MCP_REQUEST_STATE_KEYS; config: stateless.requestStateKeys; default: a cluster shares one in Redis, "
              + "one instance makes its own"})
  String requestStateKeys;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this help and exit.")
  boolean help;

  @Option(names = {"-V", "--version"}, versionHelp = true,
      description = "Print the version and the MCP revisions served, and exit.")
  boolean version;

  /** Whether {@code --help} was given: the caller prints the usage and stops. */
  public boolean helpRequested() {
    return help;
  }

  /** Whether {@code --version} was given: the caller prints the version and stops. */
  public boolean versionRequested() {
    return version;
  }

  /**
   * Parses {@code args}; throws {@link IllegalArgumentException} with a message that names the flag and the fix.
   * Help and version requests are only recorded ({@link #helpRequested()}, {@link #versionRequested()}).
   */
  public static LauncherFlags parse(String[] args) {
    CommandLine line = new CommandLine(new LauncherFlags());
    try {
      line.parseArgs(args);
    } catch (CommandLine.UnmatchedArgumentException e) {
      String unknown = e.getUnmatched().isEmpty() ? "" : e.getUnmatched().get(0);
      String hint = e.getSuggestions().isEmpty() ? "" : " (did you mean " + e.getSuggestions().get(0) + "?)";
      throw new IllegalArgumentException((unknown.startsWith("-") ? "unknown flag " : "unexpected argument ")
          + unknown + hint + "; --help lists every flag", e);
    } catch (CommandLine.MissingParameterException e) {
      String what = e.getMissing().isEmpty() ? e.getMessage()
          : e.getMissing().get(0) instanceof CommandLine.Model.OptionSpec option
              ? option.longestName() + " needs a value (" + option.paramLabel() + ")" : e.getMessage();
      throw new IllegalArgumentException(what + "; --help lists every flag", e);
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException(e.getMessage() + "; --help lists every flag", e);
    }
    return line.getCommand();
  }

  /** The cluster, lifecycle and metrics flags that were given, under the names of their environment variables. */
  Map<String, String> asEnvironment() {
    Map<String, String> given = new HashMap<>();
    if (cluster) {
      given.put("MCP_CLUSTER", "true");
    }
    if (workerOnly) {
      given.put("MCP_WORKER_ONLY", "true");
    }
    putIfGiven(given, "MCP_CLUSTER_HOST", clusterHost);
    putIfGiven(given, "MCP_CLUSTER_PORT", clusterPort);
    putIfGiven(given, "MCP_CLUSTER_MEMBERS", clusterMembers);
    putIfGiven(given, "MCP_INSTANCE_ID", instanceId);
    putIfGiven(given, "MCP_LEASE_TTL_MS", leaseTtlMs);
    putIfGiven(given, "MCP_SHUTDOWN_TIMEOUT_MS", shutdownTimeoutMs);
    putIfGiven(given, "MCP_REQUEST_STATE_KEYS", requestStateKeys);
    putIfGiven(given, "MCP_MAX_CONNECTIONS", maxConnections);
    putIfGiven(given, "MCP_CONNECTION_IDLE_TIMEOUT_MS", connectionIdleTimeoutMs);
    putIfGiven(given, "MCP_MAX_SESSIONS_PER_CLIENT", maxSessionsPerClient);
    if (metrics != null) {
      given.put("MCP_METRICS", "true");
      putIfGiven(given, "MCP_METRICS_PORT", metrics.isEmpty() ? null : metrics);
    }
    return given;
  }

  /** The flag of a setting known by its environment variable, for messages: {@code MCP_CLUSTER_PORT -> --cluster-port}. */
  static String flagOf(String envName) {
    return "--" + envName.substring("MCP_".length()).toLowerCase(Locale.ROOT).replace('_', '-');
  }

  private static void putIfGiven(Map<String, String> map, String key, String value) {
    if (value != null) {
      map.put(key, value);
    }
  }

  /**
   * {@code --http [PORT]} and {@code --metrics [PORT]}: take the next argument only when it is a port number, so {@code --http conformance}
   * still names the example.
   */
  static final class OptionalPort implements CommandLine.IParameterConsumer {
    @Override
    public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec commandSpec) {
      if (!args.isEmpty() && args.peek().matches("\\d{1,5}")) {
        argSpec.setValue(args.pop());
      } else {
        argSpec.setValue("");
      }
    }
  }
}
