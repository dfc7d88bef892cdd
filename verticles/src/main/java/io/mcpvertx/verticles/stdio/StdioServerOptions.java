package io.mcpvertx.verticles.stdio;

import io.vertx.core.json.JsonObject;

/** Options of the stdio transport. */
public class StdioServerOptions {

  public static final long DEFAULT_DRAIN_TIMEOUT_MS = 5_000;
  public static final boolean DEFAULT_REDIRECT_SYSTEM_OUT = true;

  private long drainTimeoutMs;
  private boolean redirectSystemOut;

  public StdioServerOptions() {
    drainTimeoutMs = DEFAULT_DRAIN_TIMEOUT_MS;
    redirectSystemOut = DEFAULT_REDIRECT_SYSTEM_OUT;
  }

  public StdioServerOptions(StdioServerOptions other) {
    this(other.toJson());
  }

  /** Reads what {@link #toJson()} writes: an absent key keeps its default, and every value goes through its setter. */
  public StdioServerOptions(JsonObject json) {
    this();
    setDrainTimeoutMs(json.getLong("drainTimeoutMs", drainTimeoutMs));
    setRedirectSystemOut(json.getBoolean("redirectSystemOut", redirectSystemOut));
  }

  public JsonObject toJson() {
    return new JsonObject().put("drainTimeoutMs", drainTimeoutMs).put("redirectSystemOut", redirectSystemOut);
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
}
