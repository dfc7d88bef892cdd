package io.mcpvertx.storage.redis;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.RedisReplicas;
import io.vertx.redis.client.RedisRole;
import io.vertx.redis.client.RedisTopology;
import java.util.ArrayList;
import java.util.List;

/**
 * Options of the Redis stores: where Redis is (standalone, sentinel, cluster or replication, as vertx-redis-client
 * offers them), how many connections to use, how long to wait for an answer, and how much to keep.
 *
 * <p>The pool defaults are raised well above the client's (6 connections, 24 waiters), which a busy MCP server
 * exhausts at once. Commands always go to the master: the stores read their own writes, which a replica may not
 * have yet.
 */
public class RedisStoreOptions {

  public static final String DEFAULT_CONNECTION_STRING = "redis://localhost:6379";
  public static final String DEFAULT_MASTER_NAME = "mymaster";
  public static final int DEFAULT_MAX_POOL_SIZE = 32;
  public static final int DEFAULT_MAX_POOL_WAITING = 1024;
  public static final int DEFAULT_MAX_WAITING_HANDLERS = 2048;
  public static final String DEFAULT_KEY_PREFIX = "mcp:";
  public static final long DEFAULT_COMMAND_TIMEOUT_MS = 2_000;
  public static final long DEFAULT_RECONNECT_DELAY_MS = 500;
  public static final long DEFAULT_PING_INTERVAL_MS = 5_000;
  public static final long DEFAULT_EVENT_TTL_MS = 10 * 60 * 1000;
  public static final int DEFAULT_MAX_EVENTS_PER_STREAM = 1_000;
  public static final int DEFAULT_MAX_STREAMS_PER_SESSION = 256;
  public static final long DEFAULT_WAIT_TIMEOUT_MS = 1_000;

  private RedisClientType type;
  private List<String> connectionStrings;
  private String masterName;
  private RedisTopology topology;
  private int maxPoolSize;
  private int maxPoolWaiting;
  private int maxWaitingHandlers;
  private String keyPrefix;
  private long commandTimeoutMs;
  private long reconnectDelayMs;
  private long pingIntervalMs;
  private long eventTtlMs;
  private int maxEventsPerStream;
  private int maxStreamsPerSession;
  private int waitReplicas;
  private long waitTimeoutMs;

  public RedisStoreOptions() {
    type = RedisClientType.STANDALONE;
    connectionStrings = new ArrayList<>(List.of(DEFAULT_CONNECTION_STRING));
    masterName = DEFAULT_MASTER_NAME;
    topology = RedisTopology.DISCOVER;
    maxPoolSize = DEFAULT_MAX_POOL_SIZE;
    maxPoolWaiting = DEFAULT_MAX_POOL_WAITING;
    maxWaitingHandlers = DEFAULT_MAX_WAITING_HANDLERS;
    keyPrefix = DEFAULT_KEY_PREFIX;
    commandTimeoutMs = DEFAULT_COMMAND_TIMEOUT_MS;
    reconnectDelayMs = DEFAULT_RECONNECT_DELAY_MS;
    pingIntervalMs = DEFAULT_PING_INTERVAL_MS;
    eventTtlMs = DEFAULT_EVENT_TTL_MS;
    maxEventsPerStream = DEFAULT_MAX_EVENTS_PER_STREAM;
    maxStreamsPerSession = DEFAULT_MAX_STREAMS_PER_SESSION;
    waitReplicas = 0;
    waitTimeoutMs = DEFAULT_WAIT_TIMEOUT_MS;
  }

  public RedisStoreOptions(RedisStoreOptions other) {
    this(other.toJson());
  }

  /** Reads what {@link #toJson()} writes: an absent key keeps its default, and every value goes through its setter. */
  public RedisStoreOptions(JsonObject json) {
    this();
    setType(RedisClientType.valueOf(json.getString("type", type.name())));
    JsonArray strings = json.getJsonArray("connectionStrings");
    if (strings != null) {
      List<String> list = new ArrayList<>();
      strings.forEach(s -> list.add(String.valueOf(s)));
      setConnectionStrings(list);
    }
    setMasterName(json.getString("masterName", masterName));
    setTopology(RedisTopology.valueOf(json.getString("topology", topology.name())));
    setMaxPoolSize(json.getInteger("maxPoolSize", maxPoolSize));
    setMaxPoolWaiting(json.getInteger("maxPoolWaiting", maxPoolWaiting));
    setMaxWaitingHandlers(json.getInteger("maxWaitingHandlers", maxWaitingHandlers));
    setKeyPrefix(json.getString("keyPrefix", keyPrefix));
    setCommandTimeoutMs(json.getLong("commandTimeoutMs", commandTimeoutMs));
    setReconnectDelayMs(json.getLong("reconnectDelayMs", reconnectDelayMs));
    setPingIntervalMs(json.getLong("pingIntervalMs", pingIntervalMs));
    setEventTtlMs(json.getLong("eventTtlMs", eventTtlMs));
    setMaxEventsPerStream(json.getInteger("maxEventsPerStream", maxEventsPerStream));
    setMaxStreamsPerSession(json.getInteger("maxStreamsPerSession", maxStreamsPerSession));
    setWaitReplicas(json.getInteger("waitReplicas", waitReplicas));
    setWaitTimeoutMs(json.getLong("waitTimeoutMs", waitTimeoutMs));
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("type", type.name())
        .put("connectionStrings", new JsonArray(new ArrayList<>(connectionStrings)))
        .put("masterName", masterName)
        .put("topology", topology.name())
        .put("maxPoolSize", maxPoolSize)
        .put("maxPoolWaiting", maxPoolWaiting)
        .put("maxWaitingHandlers", maxWaitingHandlers)
        .put("keyPrefix", keyPrefix)
        .put("commandTimeoutMs", commandTimeoutMs)
        .put("reconnectDelayMs", reconnectDelayMs)
        .put("pingIntervalMs", pingIntervalMs)
        .put("eventTtlMs", eventTtlMs)
        .put("maxEventsPerStream", maxEventsPerStream)
        .put("maxStreamsPerSession", maxStreamsPerSession)
        .put("waitReplicas", waitReplicas)
        .put("waitTimeoutMs", waitTimeoutMs);
  }

  /**
   * The client options these stand for. The connect timeout is the command timeout, so an unreachable host fails
   * as fast as a silent one.
   */
  public RedisOptions toRedisOptions() {
    return new RedisOptions()
        .setType(type)
        .setEndpoints(new ArrayList<>(connectionStrings))
        .setMasterName(masterName)
        .setRole(RedisRole.MASTER)
        .setUseReplicas(RedisReplicas.NEVER)
        .setTopology(topology)
        .setMaxPoolSize(maxPoolSize)
        .setMaxPoolWaiting(maxPoolWaiting)
        .setMaxWaitingHandlers(maxWaitingHandlers)
        .setNetClientOptions(new NetClientOptions().setTcpKeepAlive(true).setTcpNoDelay(true)
            .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, commandTimeoutMs)));
  }

  public RedisClientType getType() {
    return type;
  }

  /** How to reach Redis: one server, through sentinels, a cluster, or a master with replicas. */
  public RedisStoreOptions setType(RedisClientType type) {
    if (type == null) {
      throw new IllegalArgumentException("type must not be null");
    }
    this.type = type;
    return this;
  }

  public List<String> getConnectionStrings() {
    return connectionStrings;
  }

  /**
   * The endpoints, each {@code redis://[user:password@]host[:port][/db]} ({@code rediss://} for TLS): the server;
   * the sentinels; some cluster nodes; or the master and replicas.
   */
  public RedisStoreOptions setConnectionStrings(List<String> connectionStrings) {
    if (connectionStrings == null || connectionStrings.isEmpty()) {
      throw new IllegalArgumentException("at least one connection string is needed");
    }
    this.connectionStrings = new ArrayList<>(connectionStrings);
    return this;
  }

  /** Replaces the endpoints with one. */
  public RedisStoreOptions setConnectionString(String connectionString) {
    return setConnectionStrings(List.of(connectionString));
  }

  public String getMasterName() {
    return masterName;
  }

  /** The master's name, for sentinel mode. */
  public RedisStoreOptions setMasterName(String masterName) {
    if (masterName == null || masterName.isEmpty()) {
      throw new IllegalArgumentException("masterName must be non-empty");
    }
    this.masterName = masterName;
    return this;
  }

  public RedisTopology getTopology() {
    return topology;
  }

  /** For replication mode: discover the replicas from the master, or take the endpoints as they are. */
  public RedisStoreOptions setTopology(RedisTopology topology) {
    if (topology == null) {
      throw new IllegalArgumentException("topology must not be null");
    }
    this.topology = topology;
    return this;
  }

  public int getMaxPoolSize() {
    return maxPoolSize;
  }

  /** Pooled connections per endpoint; the task store's listener holds one more of its own. */
  public RedisStoreOptions setMaxPoolSize(int maxPoolSize) {
    this.maxPoolSize = positive(maxPoolSize, "maxPoolSize");
    return this;
  }

  public int getMaxPoolWaiting() {
    return maxPoolWaiting;
  }

  /** Requests that may wait for a pooled connection; beyond that they fail at once. */
  public RedisStoreOptions setMaxPoolWaiting(int maxPoolWaiting) {
    this.maxPoolWaiting = positive(maxPoolWaiting, "maxPoolWaiting");
    return this;
  }

  public int getMaxWaitingHandlers() {
    return maxWaitingHandlers;
  }

  /** Commands that may be in flight on one connection. */
  public RedisStoreOptions setMaxWaitingHandlers(int maxWaitingHandlers) {
    this.maxWaitingHandlers = positive(maxWaitingHandlers, "maxWaitingHandlers");
    return this;
  }

  public String getKeyPrefix() {
    return keyPrefix;
  }

  /**
   * Starts every key and channel the stores use, so deployments can share a Redis. It may not contain braces:
   * the stores set their own cluster hash tags after it.
   */
  public RedisStoreOptions setKeyPrefix(String keyPrefix) {
    if (keyPrefix == null || keyPrefix.isEmpty() || keyPrefix.indexOf('{') >= 0 || keyPrefix.indexOf('}') >= 0) {
      throw new IllegalArgumentException("keyPrefix must be non-empty and contain no braces");
    }
    this.keyPrefix = keyPrefix;
    return this;
  }

  public long getCommandTimeoutMs() {
    return commandTimeoutMs;
  }

  /**
   * How long a store operation may wait for Redis (and a connection attempt may take) before it fails as
   * unavailable. Keep it short: callers are waiting.
   */
  public RedisStoreOptions setCommandTimeoutMs(long commandTimeoutMs) {
    this.commandTimeoutMs = positive(commandTimeoutMs, "commandTimeoutMs");
    return this;
  }

  public long getReconnectDelayMs() {
    return reconnectDelayMs;
  }

  /** The pause between attempts to re-establish the task store's subscription after its connection dropped. */
  public RedisStoreOptions setReconnectDelayMs(long reconnectDelayMs) {
    this.reconnectDelayMs = positive(reconnectDelayMs, "reconnectDelayMs");
    return this;
  }

  public long getPingIntervalMs() {
    return pingIntervalMs;
  }

  /**
   * How often the subscription's connection is pinged. A connection that stops answering (a half-open socket
   * after a network failure) is dropped and re-established, as a closed one is.
   */
  public RedisStoreOptions setPingIntervalMs(long pingIntervalMs) {
    this.pingIntervalMs = positive(pingIntervalMs, "pingIntervalMs");
    return this;
  }

  public long getEventTtlMs() {
    return eventTtlMs;
  }

  /** How long SSE events are kept: a stream's events expire this long after they were appended. */
  public RedisStoreOptions setEventTtlMs(long eventTtlMs) {
    this.eventTtlMs = positive(eventTtlMs, "eventTtlMs");
    return this;
  }

  public int getMaxEventsPerStream() {
    return maxEventsPerStream;
  }

  /**
   * The events kept per SSE stream. The bound is approximate ({@code MAXLEN ~}): Redis may keep somewhat more,
   * never fewer.
   */
  public RedisStoreOptions setMaxEventsPerStream(int maxEventsPerStream) {
    this.maxEventsPerStream = positive(maxEventsPerStream, "maxEventsPerStream");
    return this;
  }

  public int getMaxStreamsPerSession() {
    return maxStreamsPerSession;
  }

  /** The SSE streams kept per session; beyond it the oldest stream is dropped. */
  public RedisStoreOptions setMaxStreamsPerSession(int maxStreamsPerSession) {
    this.maxStreamsPerSession = positive(maxStreamsPerSession, "maxStreamsPerSession");
    return this;
  }

  public int getWaitReplicas() {
    return waitReplicas;
  }

  /**
   * How many replicas must have a new task before its creation succeeds ({@code WAIT}); 0, the default, trusts
   * the master's acknowledgement alone.
   */
  public RedisStoreOptions setWaitReplicas(int waitReplicas) {
    if (waitReplicas < 0) {
      throw new IllegalArgumentException("waitReplicas must not be negative");
    }
    this.waitReplicas = waitReplicas;
    return this;
  }

  public long getWaitTimeoutMs() {
    return waitTimeoutMs;
  }

  /** How long to wait for the replicas; a creation not replicated in time fails as unavailable. */
  public RedisStoreOptions setWaitTimeoutMs(long waitTimeoutMs) {
    this.waitTimeoutMs = positive(waitTimeoutMs, "waitTimeoutMs");
    return this;
  }

  private static int positive(int value, String name) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be positive");
    }
    return value;
  }

  private static long positive(long value, String name) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be positive");
    }
    return value;
  }
}
