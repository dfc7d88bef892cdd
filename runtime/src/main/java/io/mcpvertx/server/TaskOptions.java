package io.mcpvertx.server;

import io.vertx.core.json.JsonObject;

/**
 * Options of durable tasks, on both wires: lifetimes, the polling hint and the limits that keep one caller from
 * exhausting the server.
 *
 * <p>A task belongs to the authenticated principal that created it; without authorization, a 2025-11-25 task
 * belongs to the session that created it, and a tasks-extension task to nobody in particular, so its id (160
 * random bits) is what guards it.
 */
public class TaskOptions {

  public static final long DEFAULT_TTL_MS = 60 * 60 * 1000L;
  public static final long DEFAULT_MAX_TTL_MS = 24 * 60 * 60 * 1000L;
  public static final long DEFAULT_POLL_INTERVAL_MS = 500;
  public static final int DEFAULT_MAX_ACTIVE_PER_OWNER = 100;
  public static final int DEFAULT_MAX_LOCAL_EXECUTIONS = 10_000;
  public static final int DEFAULT_MAX_RESULT_WAITERS = 10_000;

  private long defaultTtlMs;
  private long maxTtlMs;
  private long pollIntervalMs;
  private int maxActivePerOwner;
  private int maxLocalExecutions;
  private int maxResultWaiters;

  public TaskOptions() {
    defaultTtlMs = DEFAULT_TTL_MS;
    maxTtlMs = DEFAULT_MAX_TTL_MS;
    pollIntervalMs = DEFAULT_POLL_INTERVAL_MS;
    maxActivePerOwner = DEFAULT_MAX_ACTIVE_PER_OWNER;
    maxLocalExecutions = DEFAULT_MAX_LOCAL_EXECUTIONS;
    maxResultWaiters = DEFAULT_MAX_RESULT_WAITERS;
  }

  public TaskOptions(TaskOptions other) {
    this(other.toJson());
  }

  /** Reads what {@link #toJson()} writes: an absent key keeps its default, and every value goes through its setter. */
  public TaskOptions(JsonObject json) {
    this();
    setMaxTtlMs(json.getLong("maxTtlMs", maxTtlMs));
    setDefaultTtlMs(json.getLong("defaultTtlMs", defaultTtlMs));
    setPollIntervalMs(json.getLong("pollIntervalMs", pollIntervalMs));
    setMaxActivePerOwner(json.getInteger("maxActivePerOwner", maxActivePerOwner));
    setMaxLocalExecutions(json.getInteger("maxLocalExecutions", maxLocalExecutions));
    setMaxResultWaiters(json.getInteger("maxResultWaiters", maxResultWaiters));
  }

  public JsonObject toJson() {
    return new JsonObject().put("defaultTtlMs", defaultTtlMs).put("maxTtlMs", maxTtlMs)
        .put("pollIntervalMs", pollIntervalMs).put("maxActivePerOwner", maxActivePerOwner)
        .put("maxLocalExecutions", maxLocalExecutions).put("maxResultWaiters", maxResultWaiters);
  }

  public long getDefaultTtlMs() {
    return defaultTtlMs;
  }

  /** The lifetime of a task whose client asked for none (the extension's clients never ask). */
  public TaskOptions setDefaultTtlMs(long defaultTtlMs) {
    if (defaultTtlMs < 1) {
      throw new IllegalArgumentException("defaultTtlMs must be positive");
    }
    this.defaultTtlMs = defaultTtlMs;
    return this;
  }

  public long getMaxTtlMs() {
    return maxTtlMs;
  }

  /** The longest lifetime a task gets; a longer one asked by a 2025-11-25 client is cut to it. */
  public TaskOptions setMaxTtlMs(long maxTtlMs) {
    if (maxTtlMs < 1) {
      throw new IllegalArgumentException("maxTtlMs must be positive");
    }
    this.maxTtlMs = maxTtlMs;
    return this;
  }

  public long getPollIntervalMs() {
    return pollIntervalMs;
  }

  /** The polling interval suggested to clients. */
  public TaskOptions setPollIntervalMs(long pollIntervalMs) {
    if (pollIntervalMs < 1) {
      throw new IllegalArgumentException("pollIntervalMs must be positive");
    }
    this.pollIntervalMs = pollIntervalMs;
    return this;
  }

  public int getMaxActivePerOwner() {
    return maxActivePerOwner;
  }

  /** Tasks one owner may have working or waiting for input at once; more are refused (-32005). */
  public TaskOptions setMaxActivePerOwner(int maxActivePerOwner) {
    if (maxActivePerOwner < 1) {
      throw new IllegalArgumentException("maxActivePerOwner must be positive");
    }
    this.maxActivePerOwner = maxActivePerOwner;
    return this;
  }

  public int getMaxLocalExecutions() {
    return maxLocalExecutions;
  }

  /** Task handlers this server instance runs at once, whoever owns them; more are refused (-32005). */
  public TaskOptions setMaxLocalExecutions(int maxLocalExecutions) {
    if (maxLocalExecutions < 1) {
      throw new IllegalArgumentException("maxLocalExecutions must be positive");
    }
    this.maxLocalExecutions = maxLocalExecutions;
    return this;
  }

  public int getMaxResultWaiters() {
    return maxResultWaiters;
  }

  /** {@code tasks/result} requests this instance holds open at once; more are refused (-32005). */
  public TaskOptions setMaxResultWaiters(int maxResultWaiters) {
    if (maxResultWaiters < 1) {
      throw new IllegalArgumentException("maxResultWaiters must be positive");
    }
    this.maxResultWaiters = maxResultWaiters;
    return this;
  }
}
