package io.mcpvertx.examples.config;

import io.mcpvertx.examples.auth.AuthFlags;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.storage.redis.RedisStoreOptions;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.http.auth.McpAuthOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How the examples jar runs: which example, over stdio or HTTP, with which stores and options. Each setting comes
 * from a command-line flag, else the environment, else a JSON config file, else its default.
 *
 * <pre>
 * [hello|clock|conformance]                  the example (hello)
 * --http [PORT]                              serve over HTTP (file: http.port, default 3000); else stdio
 * --config FILE     MCP_CONFIG               a JSON config file (see below)
 * --store memory|redis  MCP_STORE            where tasks, SSE events and sessions are kept (file: store; memory)
 * --redis-url URL   MCP_REDIS_URL            the Redis to use (file: redis.connectionStrings; redis://localhost:6379)
 * --auth-...        MCP_AUTH_...             authorization, see {@link AuthFlags} (file: auth)
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
 *   "auth":  { McpAuthOptions JSON: mode, issuer, resource, requiredScopes, ... }
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

  private static final Set<String> FILE_KEYS = Set.of("http", "store", "redis", "tasks", "auth");

  private String example = "hello";
  private boolean http;
  private McpHttpServerOptions httpOptions = new McpHttpServerOptions();
  private Store store = Store.MEMORY;
  private RedisStoreOptions redis = new RedisStoreOptions();
  private TaskOptions tasks = new TaskOptions();
  private McpAuthOptions auth = new McpAuthOptions();
  private String fileStore;

  private ExampleConfig() {
  }

  /**
   * Reads the flags, then the environment, then the config file they name. Throws {@link IllegalArgumentException}
   * with a message for the user when something is wrong: an unknown flag value, an unreadable or invalid file.
   */
  public static ExampleConfig load(String[] args, Map<String, String> env) {
    ExampleConfig config = new ExampleConfig();
    AuthFlags authFlags = new AuthFlags();
    Integer port = null;
    String file = null;
    String storeFlag = null;
    String redisUrl = null;
    for (int i = 0; i < args.length; i++) {
      int used = authFlags.take(args, i);
      if (used >= 0) {
        i = used;
        continue;
      }
      switch (args[i]) {
        case "--http" -> {
          config.http = true;
          if (i + 1 < args.length && args[i + 1].matches("\\d{1,5}")) {
            port = Integer.parseInt(args[++i]);
          }
        }
        case "--config" -> file = value(args, i++);
        case "--store" -> storeFlag = value(args, i++);
        case "--redis-url" -> redisUrl = value(args, i++);
        default -> {
          if (args[i].startsWith("--")) {
            throw new IllegalArgumentException("unknown flag " + args[i]);
          }
          config.example = args[i];
        }
      }
    }
    JsonObject json = read(or(file, env.get("MCP_CONFIG")));
    config.apply(json);
    String storeName = or(storeFlag, or(env.get("MCP_STORE"), config.fileStore));
    if (storeName != null) {
      config.store = store(storeName);
    }
    String url = or(redisUrl, env.get("MCP_REDIS_URL"));
    if (url != null) {
      config.redis.setConnectionString(url);
    }
    if (port != null) {
      config.httpOptions.setPort(port);
    }
    config.auth = authFlags.options(env, config.httpOptions.getPort(), config.auth);
    return config;
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

  private static Store store(String name) {
    try {
      return Store.valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown store \"" + name + "\"; choose memory or redis", e);
    }
  }

  private static String value(String[] args, int i) {
    if (i + 1 >= args.length) {
      throw new IllegalArgumentException(args[i] + " needs a value");
    }
    return args[i + 1];
  }

  private static String or(String first, String second) {
    return first != null ? first : second;
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
}
