package io.mcpvertx.verticles.stdio;

import io.vertx.core.json.JsonObject;

/** Options of the stdio transport. */
public class StdioServerOptions {

  public static final long DEFAULT_DRAIN_TIMEOUT_MS = 5_000;

  private long drainTimeoutMs;
  private boolean redirectSystemOut;

  public StdioServerOptions() {
    drainTimeoutMs = DEFAULT_DRAIN_TIMEOUT_MS;
    redirectSystemOut = true;
  }

  public StdioServerOptions(StdioServerOptions other) {
    drainTimeoutMs = other.drainTimeoutMs;
    redirectSystemOut = other.redirectSystemOut;
  }

  public StdioServerOptions(JsonObject json) {
    this();
    drainTimeoutMs = json.getLong("drainTimeoutMs", drainTimeoutMs);
    redirectSystemOut = json.getBoolean("redirectSystemOut", redirectSystemOut);
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
