package io.mcpvertx.server.cluster;

import io.vertx.core.json.JsonObject;

/**
 * Options of an instance's lease ({@link McpInstance}): how long it lives without renewal and how often it is
 * renewed and swept for orphans.
 *
 * <p>The lease TTL is the bound on how long a dead instance's sessions stay unclaimable and its tasks stay
 * {@code working}: another instance takes them over within about {@code leaseTtlMs + orphanSweepIntervalMs}. It
 * must be several renew intervals long, so one slow renewal (a GC pause, a Redis failover) does not lose the lease.
 */
public class InstanceOptions {

  public static final long DEFAULT_LEASE_TTL_MS = 10_000;
  public static final long DEFAULT_RENEW_INTERVAL_MS = 2_000;
  public static final long DEFAULT_ORPHAN_SWEEP_INTERVAL_MS = 2_000;
  public static final String DEFAULT_NAME = "mcp";

  private long leaseTtlMs;
  private long renewIntervalMs;
  private long orphanSweepIntervalMs;
  private String name;
  private boolean ownsSessions;

  public InstanceOptions() {
    leaseTtlMs = DEFAULT_LEASE_TTL_MS;
    renewIntervalMs = DEFAULT_RENEW_INTERVAL_MS;
    orphanSweepIntervalMs = DEFAULT_ORPHAN_SWEEP_INTERVAL_MS;
    name = DEFAULT_NAME;
    ownsSessions = true;
  }

  public InstanceOptions(InstanceOptions other) {
    this(other.toJson());
  }

  /**
   * Reads what {@link #toJson()} writes: an absent key keeps its default, and every value goes through its setter.
   * Like the setters, it leaves the check across values to {@link #validate()}.
   */
  public InstanceOptions(JsonObject json) {
    this();
    setLeaseTtlMs(json.getLong("leaseTtlMs", leaseTtlMs));
    setRenewIntervalMs(json.getLong("renewIntervalMs", renewIntervalMs));
    setOrphanSweepIntervalMs(json.getLong("orphanSweepIntervalMs", orphanSweepIntervalMs));
    setName(json.getString("name", name));
    setOwnsSessions(json.getBoolean("ownsSessions", ownsSessions));
  }

  public JsonObject toJson() {
    return new JsonObject().put("leaseTtlMs", leaseTtlMs).put("renewIntervalMs", renewIntervalMs)
        .put("orphanSweepIntervalMs", orphanSweepIntervalMs).put("name", name).put("ownsSessions", ownsSessions);
  }

  /**
   * Checks that the lease survives at least two missed renewals. Called by {@link McpInstance#create}; the setters
   * check each value alone, since they may be called in any order.
   */
  public InstanceOptions validate() {
    if (leaseTtlMs < 3 * renewIntervalMs) {
      throw new IllegalArgumentException("leaseTtlMs (" + leaseTtlMs + ") must be at least three renew intervals ("
          + renewIntervalMs + " ms)");
    }
    return this;
  }

  public long getLeaseTtlMs() {
    return leaseTtlMs;
  }

  public InstanceOptions setLeaseTtlMs(long leaseTtlMs) {
    if (leaseTtlMs < 3) {
      throw new IllegalArgumentException("leaseTtlMs must be at least 3");
    }
    this.leaseTtlMs = leaseTtlMs;
    return this;
  }

  public long getRenewIntervalMs() {
    return renewIntervalMs;
  }

  public InstanceOptions setRenewIntervalMs(long renewIntervalMs) {
    if (renewIntervalMs < 1) {
      throw new IllegalArgumentException("renewIntervalMs must be positive");
    }
    this.renewIntervalMs = renewIntervalMs;
    return this;
  }

  public long getOrphanSweepIntervalMs() {
    return orphanSweepIntervalMs;
  }

  public InstanceOptions setOrphanSweepIntervalMs(long orphanSweepIntervalMs) {
    if (orphanSweepIntervalMs < 1) {
      throw new IllegalArgumentException("orphanSweepIntervalMs must be positive");
    }
    this.orphanSweepIntervalMs = orphanSweepIntervalMs;
    return this;
  }

  /** A readable prefix of the instance's ids (a node name, say); random bits follow it. */
  public String getName() {
    return name;
  }

  public InstanceOptions setName(String name) {
    if (name == null || name.isEmpty() || name.length() > 64 || !name.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException("name must be 1-64 characters of letters, digits, '.', '_' or '-'");
    }
    this.name = name;
    return this;
  }

  /**
   * Whether the HTTP transport uses the lease to own sessions and route their requests to the owner over the
   * event bus (true, the default: instances that share a clustered event bus). False: the lease covers task
   * executions only, so the tasks of a dead instance are still settled, while sessions are served as with shared
   * stores alone; for instances that share Redis but no event bus, a single one among them included.
   */
  public boolean isOwnsSessions() {
    return ownsSessions;
  }

  public InstanceOptions setOwnsSessions(boolean ownsSessions) {
    this.ownsSessions = ownsSessions;
    return this;
  }
}
