package io.mcpvertx.verticles.stdio;

import io.vertx.core.json.JsonObject;

/** Options of the stdio transport. */
public class StdioServerOptions {

  public static final long DEFAULT_DRAIN_TIMEOUT_MS = 5_000;
  public static final boolean DEFAULT_REDIRECT_SYSTEM_OUT = true;
  public static final int DEFAULT_MAX_OUTPUT_QUEUE_BYTES = 16 * 1024 * 1024;

  private long drainTimeoutMs;
  private boolean redirectSystemOut;
  private int maxOutputQueueBytes;

  public StdioServerOptions() {
    drainTimeoutMs = DEFAULT_DRAIN_TIMEOUT_MS;
    redirectSystemOut = DEFAULT_REDIRECT_SYSTEM_OUT;
    maxOutputQueueBytes = DEFAULT_MAX_OUTPUT_QUEUE_BYTES;
  }

  public StdioServerOptions(StdioServerOptions other) {
    this(other.toJson());
  }

  /** Reads what {@link #toJson()} writes: an absent key keeps its default, and every value goes through its setter. */
  public StdioServerOptions(JsonObject json) {
    this();
    setDrainTimeoutMs(json.getLong("drainTimeoutMs", drainTimeoutMs));
    setRedirectSystemOut(json.getBoolean("redirectSystemOut", redirectSystemOut));
    setMaxOutputQueueBytes(json.getInteger("maxOutputQueueBytes", maxOutputQueueBytes));
  }

  public JsonObject toJson() {
    return new JsonObject().put("drainTimeoutMs", drainTimeoutMs).put("redirectSystemOut", redirectSystemOut)
        .put("maxOutputQueueBytes", maxOutputQueueBytes);
  }

  public long getDrainTimeoutMs() {
    return drainTimeoutMs;
  }

  /** At end of input, how long requests still being served may take to finish before the session closes. */
  public StdioServerOptions setDrainTimeoutMs(long drainTimeoutMs) {
    if (drainTimeoutMs < 0) {
      throw new IllegalArgumentException("drainTimeoutMs must not be negative");
    }
    this.drainTimeoutMs = drainTimeoutMs;
    return this;
  }

  public boolean isRedirectSystemOut() {
    return redirectSystemOut;
  }

  /**
   * Whether {@code System.out} is pointed at standard error while serving, so that a stray print in user code
   * cannot corrupt the protocol stream. Only applies when serving the process's own standard output.
   */
  public StdioServerOptions setRedirectSystemOut(boolean redirectSystemOut) {
    this.redirectSystemOut = redirectSystemOut;
    return this;
  }

  public int getMaxOutputQueueBytes() {
    return maxOutputQueueBytes;
  }

  /**
   * How many bytes of output may wait for the host to read them before the server reads no more input (and says
   * so in a WARN line): a host that stops reading cannot grow the heap with answers.
   */
  public StdioServerOptions setMaxOutputQueueBytes(int maxOutputQueueBytes) {
    if (maxOutputQueueBytes < 1) {
      throw new IllegalArgumentException("maxOutputQueueBytes must be positive");
    }
    this.maxOutputQueueBytes = maxOutputQueueBytes;
    return this;
  }
}
