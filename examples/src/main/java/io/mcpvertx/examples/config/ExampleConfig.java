package io.mcpvertx.examples.config;

import io.mcpvertx.cluster.McpClusterOptions;
import io.mcpvertx.examples.auth.AuthFlags;
import io.mcpvertx.metrics.McpMetricsOptions;
import io.mcpvertx.server.StatelessOptions;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.server.cluster.InstanceOptions;
import io.mcpvertx.storage.redis.RedisStoreOptions;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.http.auth.McpAuthOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * How the examples jar runs: which example, over stdio or HTTP, with which stores and options. Each setting comes
 * from a command-line flag, else the environment, else a JSON config file, else its default. The flags are parsed
 * by {@link LauncherFlags}, whose {@code --help} lists each with its environment variable, file key and default.
 *
 * <pre>
 * [hello|clock|conformance]                  the example (hello)
 * --http [PORT]                              serve over HTTP (file: http.port, default 3000); else stdio
 * --config FILE     MCP_CONFIG               a JSON config file (see below)
 * --store memory|redis  MCP_STORE            where tasks, SSE events and sessions are kept (file: store; memory)
 * --redis-url URL   MCP_REDIS_URL            the Redis to use (file: redis.connectionStrings; redis://localhost:6379)
 * --auth-...        MCP_AUTH_...             authorization, see {@link AuthFlags} (file: auth)
 * --cluster         MCP_CLUSTER=true         join a cluster (file: cluster.enabled); needs --store redis
 * --cluster-host H  MCP_CLUSTER_HOST         this member's address (file: cluster.host; 127.0.0.1)
 * --cluster-port P  MCP_CLUSTER_PORT         this member's Hazelcast port (file: cluster.port; 5701)
 * --cluster-members h:p,...  MCP_CLUSTER_MEMBERS  the TCP-IP member list, one port each (file: cluster.members)
 * --instance-id ID  MCP_INSTANCE_ID          a readable name for this instance's lease (file: instance.name)
 * --lease-ttl-ms N  MCP_LEASE_TTL_MS         the instance lease (file: instance.leaseTtlMs; 10000), renewed every fifth
 * --worker-only     MCP_WORKER_ONLY=true     serve tool verticles to the cluster only (file: cluster.workerOnly)
 * --shutdown-timeout-ms N  MCP_SHUTDOWN_TIMEOUT_MS  how long SIGTERM waits for work in flight (10000)
 * --request-state-keys k1,k2  MCP_REQUEST_STATE_KEYS  2026-07-28 requestState HMAC keys (file: stateless)
 * --max-connections N  MCP_MAX_CONNECTIONS  HTTP connections held at once (file: http.maxConnections; 4096)
 * --connection-idle-timeout-ms N  MCP_CONNECTION_IDLE_TIMEOUT_MS  idle HTTP connections closed (file:
 *                                            http.connectionIdleTimeoutMs; 60000)
 * --max-sessions-per-client N  MCP_MAX_SESSIONS_PER_CLIENT  sessions per principal or address (file:
 *                                            http.maxSessionsPerClient; 1000)
 * --metrics [PORT]  MCP_METRICS=true, MCP_METRICS_PORT  Prometheus metrics on PORT, path /metrics (file:
 *                                            metrics.enabled, metrics.port; off, 9464)
 * </pre>
 *
 * <p>The config file is one JSON object; every key is optional, a key starting with {@code _} is a comment, and any
 * other key it does not know is an error:
 * <pre>
 * {
 *   "http":  { McpHttpServerOptions JSON: host, port, maxSessions, sessionIdleTimeoutMs, ... },
 *   "store": "memory" | "redis",
 *   "redis": { RedisStoreOptions JSON: connectionStrings, keyPrefix, commandTimeoutMs, eventTtlMs, ... },
 *   "tasks": { TaskOptions JSON: defaultTtlMs, maxTtlMs, pollIntervalMs, ... },
 *   "auth":  { McpAuthOptions JSON: mode, issuer, resource, requiredScopes, ... },
 *   "cluster": { "enabled": true, "workerOnly": false, McpClusterOptions JSON: host, port, members, ... },
 *   "instance": { InstanceOptions JSON: name, leaseTtlMs, renewIntervalMs, orphanSweepIntervalMs },
 *   "stateless": { StatelessOptions JSON: requestStateKeys, requestStateTtlMs, ... },
 *   "metrics": { "enabled": true, McpMetricsOptions JSON: host, port, path, vertxMetrics, jvmMetrics },
 *   "shutdownTimeoutMs": 10000
 * }
 * </pre>
 * A file with an {@code http} object serves over HTTP without {@code --http}.
 */
public final class ExampleConfig {

  /** Where the stores live. */
  public enum Store {
    /** In this process: the zero-setup default, for one instance. */
    MEMORY,
    /** In Redis: shared by every instance, so any of them serves any session, stream or task. */
    REDIS
  }

  private static final List<String> EXAMPLES = List.of("hello", "clock", "conformance");

  private static final Map<String, String> EXAMPLE_NUMBERS = Map.of("MCP_CLUSTER_PORT", "5701",
      "MCP_LEASE_TTL_MS", "10000", "MCP_SHUTDOWN_TIMEOUT_MS", "10000", "MCP_MAX_CONNECTIONS", "4096",
      "MCP_CONNECTION_IDLE_TIMEOUT_MS", "60000", "MCP_MAX_SESSIONS_PER_CLIENT", "1000", "MCP_METRICS_PORT", "9464");

  private static final Set<String> FILE_KEYS = Set.of("http", "store", "redis", "tasks", "auth", "cluster",
      "instance", "shutdownTimeoutMs", "stateless", "metrics");

  private String example = "hello";
  private boolean http;
  private McpHttpServerOptions httpOptions = new McpHttpServerOptions();
  private Store store = Store.MEMORY;
  private RedisStoreOptions redis = new RedisStoreOptions();
  private TaskOptions tasks = new TaskOptions();
  private McpAuthOptions auth = new McpAuthOptions();
  private String fileStore;
  private boolean clustered;
  private boolean workerOnly;
  private McpClusterOptions cluster = new McpClusterOptions();
  private InstanceOptions instance = new InstanceOptions();
  private boolean renewIntervalSet;
  private long shutdownTimeoutMs = 10_000;
  private StatelessOptions stateless = new StatelessOptions();
  private boolean metricsEnabled;
  private McpMetricsOptions metrics = new McpMetricsOptions();

  private ExampleConfig() {
  }

  /**
   * Reads the flags, then the environment, then the config file they name. Throws {@link IllegalArgumentException}
   * with a message for the user when something is wrong: an unknown flag, a malformed value (named by its flag,
   * environment variable or file key), a contradictory combination, an unreadable or invalid file.
   */
  public static ExampleConfig load(String[] args, Map<String, String> env) {
    return load(LauncherFlags.parse(args), env);
  }

  /** As {@link #load(String[], Map)}, from flags already parsed. */
  public static ExampleConfig load(LauncherFlags flags, Map<String, String> env) {
    ExampleConfig config = new ExampleConfig();
    if (flags.example != null) {
      if (!EXAMPLES.contains(flags.example)) {
        throw new IllegalArgumentException("unknown example '" + flags.example + "'; choose hello, clock or "
            + "conformance");
      }
      config.example = flags.example;
    }
    Integer port = null;
    if (flags.http != null) {
      config.http = true;
      if (!flags.http.isEmpty()) {
        port = Integer.parseInt(flags.http);
        if (port > 65_535) {
          throw new IllegalArgumentException("--http takes a port from 0 to 65535, not " + port);
        }
      }
    }
    JsonObject json = read(or(flags.config, env.get("MCP_CONFIG")));
    config.apply(json);
    String storeName = or(flags.store, or(env.get("MCP_STORE"), config.fileStore));
    if (storeName != null) {
      config.store = store(storeName, flags.store != null ? "--store" : env.get("MCP_STORE") != null ? "MCP_STORE"
          : "the config file's \"store\"");
    }
    String url = or(flags.redisUrl, env.get("MCP_REDIS_URL"));
    if (url != null) {
      config.redis.setConnectionString(url);
    }
    if (port != null) {
      config.httpOptions.setPort(port);
    }
    config.auth = flags.auth.options(env, config.httpOptions.getPort(), config.auth);
    Map<String, String> given = flags.asEnvironment();
    config.applyCluster(key -> or(given.get(key), env.get(key)),
        key -> given.containsKey(key) ? LauncherFlags.flagOf(key) : key);
    config.refuseContradictions(flags);
    return config;
  }

  /** Flag combinations that cannot both be meant, each refused with the fix. */
  private void refuseContradictions(LauncherFlags flags) {
    if (flags.redisUrl != null && store != Store.REDIS) {
      throw new IllegalArgumentException("--redis-url is for the Redis store, and the store is memory: add "
          + "--store redis, or drop --redis-url");
    }
    if (workerOnly && flags.http != null) {
      throw new IllegalArgumentException("--worker-only serves tool verticles to the cluster and no MCP transport: "
          + "drop --http, or drop --worker-only to serve MCP here");
    }
    String authFlag = flags.auth.firstFlagGiven();
    if (authFlag != null && !http) {
      throw new IllegalArgumentException(authFlag + " protects the HTTP transport, and this serves stdio (where "
          + "credentials come from the environment): add --http, or drop the --auth-* flags");
    }
  }

  /** The cluster settings of flags (as their environment names) or the environment, over the file's. */
  private void applyCluster(Function<String, String> setting,
      Function<String, String> source) {
    String parsing = null;
    try {
      String enabled = setting.apply("MCP_CLUSTER");
      if (enabled != null) {
        clustered = Boolean.parseBoolean(enabled);
      }
      String worker = setting.apply("MCP_WORKER_ONLY");
      if (worker != null) {
        workerOnly = Boolean.parseBoolean(worker);
      }
      String host = setting.apply("MCP_CLUSTER_HOST");
      if (host != null) {
        cluster.setHost(host);
      }
      String port = setting.apply("MCP_CLUSTER_PORT");
      parsing = "MCP_CLUSTER_PORT";
      if (port != null) {
        cluster.setPort(Integer.parseInt(port.trim()));
      }
      String members = setting.apply("MCP_CLUSTER_MEMBERS");
      if (members != null) {
        cluster.setMembers(Arrays.asList(members.split(",")));
      }
      String id = setting.apply("MCP_INSTANCE_ID");
      if (id != null) {
        instance.setName(id);
      }
      String ttl = setting.apply("MCP_LEASE_TTL_MS");
      parsing = "MCP_LEASE_TTL_MS";
      if (ttl != null) {
        instance.setLeaseTtlMs(Long.parseLong(ttl.trim()));
      }
      if (ttl != null && !renewIntervalSet) {
        // A fifth of the lease: two renewals may fail and the lease still holds.
        instance.setRenewIntervalMs(Math.max(1, instance.getLeaseTtlMs() / 5))
            .setOrphanSweepIntervalMs(Math.max(1, instance.getLeaseTtlMs() / 5));
      }
      instance.validate();
      String keys = setting.apply("MCP_REQUEST_STATE_KEYS");
      if (keys != null) {
        stateless.setRequestStateKeys(Arrays.stream(keys.split(",")).map(String::trim)
            .filter(k -> !k.isEmpty()).toList());
      }
      String shutdown = setting.apply("MCP_SHUTDOWN_TIMEOUT_MS");
      parsing = "MCP_SHUTDOWN_TIMEOUT_MS";
      if (shutdown != null) {
        shutdownTimeoutMs = Long.parseLong(shutdown.trim());
      }
      String connections = setting.apply("MCP_MAX_CONNECTIONS");
      parsing = "MCP_MAX_CONNECTIONS";
      if (connections != null) {
        httpOptions.setMaxConnections(Integer.parseInt(connections.trim()));
      }
      String idle = setting.apply("MCP_CONNECTION_IDLE_TIMEOUT_MS");
      parsing = "MCP_CONNECTION_IDLE_TIMEOUT_MS";
      if (idle != null) {
        httpOptions.setConnectionIdleTimeoutMs(Long.parseLong(idle.trim()));
      }
      String metricsOn = setting.apply("MCP_METRICS");
      if (metricsOn != null) {
        metricsEnabled = Boolean.parseBoolean(metricsOn);
      }
      String metricsPort = setting.apply("MCP_METRICS_PORT");
      parsing = "MCP_METRICS_PORT";
      if (metricsPort != null) {
        metrics.setPort(Integer.parseInt(metricsPort.trim()));
      }
      String perClient = setting.apply("MCP_MAX_SESSIONS_PER_CLIENT");
      parsing = "MCP_MAX_SESSIONS_PER_CLIENT";
      if (perClient != null) {
        httpOptions.setMaxSessionsPerClient(Integer.parseInt(perClient.trim()));
      }
    } catch (NumberFormatException e) {
      String name = source.apply(parsing);
      throw new IllegalArgumentException(name + " takes a whole number, not \"" + setting.apply(parsing) + "\": "
          + "e.g. " + name + (name.startsWith("--") ? " " : "=") + EXAMPLE_NUMBERS.get(parsing), e);
    }
    if (workerOnly && !clustered) {
      throw new IllegalArgumentException(source.apply("MCP_WORKER_ONLY") + " serves tools to a cluster: add "
          + "--cluster");
    }
    if (clustered && !workerOnly && store != Store.REDIS) {
      throw new IllegalArgumentException("a clustered server keeps sessions, tasks and leases in Redis: add "
          + "--store redis (and --redis-url)");
    }
    if (shutdownTimeoutMs < 0) {
      throw new IllegalArgumentException("the shutdown timeout must not be negative");
    }
  }

  private void apply(JsonObject json) {
    for (String key : json.fieldNames()) {
      if (!FILE_KEYS.contains(key) && !key.startsWith("_")) {
        throw new IllegalArgumentException("unknown key \"" + key + "\" in the config file; known: " + FILE_KEYS);
      }
    }
    try {
      if (json.containsKey("http")) {
        http = true;
        httpOptions = new McpHttpServerOptions(json.getJsonObject("http"));
        auth = httpOptions.getAuth();
      }
      if (json.containsKey("store")) {
        fileStore = json.getString("store");
      }
      if (json.containsKey("redis")) {
        redis = new RedisStoreOptions(json.getJsonObject("redis"));
      }
      if (json.containsKey("tasks")) {
        tasks = new TaskOptions(json.getJsonObject("tasks"));
      }
      if (json.containsKey("auth")) {
        auth = new McpAuthOptions(json.getJsonObject("auth"));
      }
      if (json.containsKey("cluster")) {
        JsonObject clusterJson = json.getJsonObject("cluster").copy();
        clustered = Boolean.TRUE.equals(clusterJson.remove("enabled"));
        workerOnly = Boolean.TRUE.equals(clusterJson.remove("workerOnly"));
        clusterJson.fieldNames().removeIf(k -> k.startsWith("_"));
        cluster = new McpClusterOptions(clusterJson);
      }
      if (json.containsKey("instance")) {
        JsonObject instanceJson = json.getJsonObject("instance");
        renewIntervalSet = instanceJson.containsKey("renewIntervalMs");
        instance = new InstanceOptions(instanceJson);
      }
      if (json.containsKey("stateless")) {
        stateless = new StatelessOptions(json.getJsonObject("stateless"));
      }
      if (json.containsKey("metrics")) {
        JsonObject metricsJson = json.getJsonObject("metrics").copy();
        metricsEnabled = Boolean.TRUE.equals(metricsJson.remove("enabled"));
        metricsJson.fieldNames().removeIf(k -> k.startsWith("_"));
        metrics = new McpMetricsOptions(metricsJson);
      }
      if (json.containsKey("shutdownTimeoutMs")) {
        shutdownTimeoutMs = json.getLong("shutdownTimeoutMs");
      }
    } catch (ClassCastException | IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid config file: " + e.getMessage(), e);
    }
  }

  private static JsonObject read(String file) {
    if (file == null) {
      return new JsonObject();
    }
    try {
      return new JsonObject(Files.readString(Path.of(file)));
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the config file " + file + ": " + e.getMessage(), e);
    } catch (DecodeException | ClassCastException e) {
      throw new IllegalArgumentException("the config file " + file + " is not a JSON object: " + e.getMessage(), e);
    }
  }

  private static Store store(String name, String source) {
    try {
      return Store.valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown store \"" + name + "\" (from " + source + "); choose memory or "
          + "redis", e);
    }
  }

  private static String or(String first, String second) {
    return first != null ? first : second;
  }

  /** The metrics to serve; empty when metrics are off (the default). */
  public Optional<McpMetricsOptions> metrics() {
    return metricsEnabled ? Optional.of(new McpMetricsOptions(metrics)) : Optional.empty();
  }

  /** The example to serve: hello, clock or conformance. */
  public String example() {
    return example;
  }

  /** Whether to serve over HTTP ({@code --http}, or an {@code http} object in the file); else stdio. */
  public boolean http() {
    return http;
  }

  public McpHttpServerOptions httpOptions() {
    return new McpHttpServerOptions(httpOptions).setAuth(auth);
  }

  public Store store() {
    return store;
  }

  public RedisStoreOptions redis() {
    return new RedisStoreOptions(redis);
  }

  public TaskOptions tasks() {
    return new TaskOptions(tasks);
  }

  public McpAuthOptions auth() {
    return new McpAuthOptions(auth);
  }

  /** Whether this instance joins a cluster ({@code --cluster}). */
  public boolean clustered() {
    return clustered;
  }

  /** A cluster member that serves its tool verticles only: no MCP server, no transport. */
  public boolean workerOnly() {
    return workerOnly;
  }

  public McpClusterOptions cluster() {
    return new McpClusterOptions(cluster);
  }

  public InstanceOptions instance() {
    return new InstanceOptions(instance);
  }

  /**
   * Options of the stateless revision; its requestState keys must be the same on every instance (empty: a cluster
   * shares one kept in Redis, a single instance makes its own).
   */
  public StatelessOptions stateless() {
    return new StatelessOptions(stateless);
  }

  /** How long a graceful shutdown waits for requests and tasks in flight. */
  public long shutdownTimeoutMs() {
    return shutdownTimeoutMs;
  }
}
