package io.mcpvertx.verticles;

import io.vertx.core.json.JsonObject;

/** Options of {@link RemoteFeatures}: how long calls may take, and how often the cluster's membership is read. */
public class RemoteFeaturesOptions {

  /** Tool calls can be long. */
  public static final long DEFAULT_CALL_TIMEOUT_MS = 10 * 60 * 1000;
  public static final long DEFAULT_MEMBERSHIP_CHECK_INTERVAL_MS = 1_000;

  private long callTimeoutMs;
  private long membershipCheckIntervalMs;

  public RemoteFeaturesOptions() {
    callTimeoutMs = DEFAULT_CALL_TIMEOUT_MS;
    membershipCheckIntervalMs = DEFAULT_MEMBERSHIP_CHECK_INTERVAL_MS;
  }

  public RemoteFeaturesOptions(RemoteFeaturesOptions other) {
    this(other.toJson());
  }

  /** Reads what {@link #toJson()} writes: an absent key keeps its default, and every value goes through its setter. */
  public RemoteFeaturesOptions(JsonObject json) {
    this();
    setCallTimeoutMs(json.getLong("callTimeoutMs", callTimeoutMs));
    setMembershipCheckIntervalMs(json.getLong("membershipCheckIntervalMs", membershipCheckIntervalMs));
  }

  public JsonObject toJson() {
    return new JsonObject().put("callTimeoutMs", callTimeoutMs)
        .put("membershipCheckIntervalMs", membershipCheckIntervalMs);
  }

  public long getCallTimeoutMs() {
    return callTimeoutMs;
  }

  /** How long a call to a feature verticle may take before the caller gets a timeout error. */
  public RemoteFeaturesOptions setCallTimeoutMs(long callTimeoutMs) {
    this.callTimeoutMs = positive(callTimeoutMs, "callTimeoutMs");
    return this;
  }

  public long getMembershipCheckIntervalMs() {
    return membershipCheckIntervalMs;
  }

  /**
   * On a clustered Vert.x, how often the cluster manager's member list is read to find nodes that left: their
   * features are removed and calls in flight to them fail. It adds at most this much to the cluster manager's own
   * failure detection. Reading the list is local and cheap.
   */
  public RemoteFeaturesOptions setMembershipCheckIntervalMs(long membershipCheckIntervalMs) {
    this.membershipCheckIntervalMs = positive(membershipCheckIntervalMs, "membershipCheckIntervalMs");
    return this;
  }

  private static long positive(long value, String name) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive");
    }
    return value;
  }
}
