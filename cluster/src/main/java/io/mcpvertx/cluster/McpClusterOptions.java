package io.mcpvertx.cluster;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * How an instance joins its cluster: an embedded Hazelcast member that finds the others through a TCP-IP member
 * list (VMs, one machine) or Kubernetes discovery, and the clustered event bus beside it.
 *
 * <p>Members are listed one address and port each ({@code 127.0.0.1:5701}); Hazelcast would read a range
 * ({@code 127.0.0.1:5701-5703}) as a list of ports to probe on each address, which on one machine does not give
 * what was meant, so ranges are refused here.
 */
public class McpClusterOptions {

  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 5701;
  public static final int DEFAULT_EVENT_BUS_PORT = 0;
  public static final String DEFAULT_CLUSTER_NAME = "mcp-vertx";
  public static final int DEFAULT_HEARTBEAT_INTERVAL_SECONDS = 1;
  public static final int DEFAULT_MAX_NO_HEARTBEAT_SECONDS = 5;

  private static final Pattern MEMBER = Pattern.compile("^[A-Za-z0-9._\\-\\[\\]:]+:[0-9]{1,5}$");

  private String host;
  private int port;
  private int eventBusPort;
  private List<String> members;
  private String clusterName;
  private int heartbeatIntervalSeconds;
  private int maxNoHeartbeatSeconds;
  private JsonObject kubernetes;

  public McpClusterOptions() {
    host = DEFAULT_HOST;
    port = DEFAULT_PORT;
    eventBusPort = DEFAULT_EVENT_BUS_PORT;
    members = new ArrayList<>();
    clusterName = DEFAULT_CLUSTER_NAME;
    heartbeatIntervalSeconds = DEFAULT_HEARTBEAT_INTERVAL_SECONDS;
    maxNoHeartbeatSeconds = DEFAULT_MAX_NO_HEARTBEAT_SECONDS;
    kubernetes = null;
  }

  public McpClusterOptions(McpClusterOptions other) {
    this(other.toJson());
  }

  /** Reads what {@link #toJson()} writes: an absent key keeps its default, and every value goes through its setter. */
  public McpClusterOptions(JsonObject json) {
    this();
    setHost(json.getString("host", host));
    setPort(json.getInteger("port", port));
    setEventBusPort(json.getInteger("eventBusPort", eventBusPort));
    setMembers(strings(json.getJsonArray("members"), members));
    setClusterName(json.getString("clusterName", clusterName));
    setHeartbeatIntervalSeconds(json.getInteger("heartbeatIntervalSeconds", heartbeatIntervalSeconds));
    setMaxNoHeartbeatSeconds(json.getInteger("maxNoHeartbeatSeconds", maxNoHeartbeatSeconds));
    setKubernetes(json.getJsonObject("kubernetes", kubernetes));
  }

  private static List<String> strings(JsonArray array, List<String> absent) {
    if (array == null) {
      return absent;
    }
    List<String> list = new ArrayList<>();
    array.forEach(value -> list.add(String.valueOf(value)));
    return list;
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("host", host).put("port", port).put("eventBusPort", eventBusPort)
        .put("members", new JsonArray(new ArrayList<>(members))).put("clusterName", clusterName)
        .put("heartbeatIntervalSeconds", heartbeatIntervalSeconds).put("maxNoHeartbeatSeconds", maxNoHeartbeatSeconds);
    if (kubernetes != null) {
      json.put("kubernetes", kubernetes.copy());
    }
    return json;
  }

  /** The address Hazelcast and the event bus bind to and announce to the other members. */
  public String getHost() {
    return host;
  }

  public McpClusterOptions setHost(String host) {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("host must not be empty");
    }
    this.host = host;
    return this;
  }

  /** This member's Hazelcast port; exactly this one (no probing of the next ports). */
  public int getPort() {
    return port;
  }

  public McpClusterOptions setPort(int port) {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port must be 1-65535");
    }
    this.port = port;
    return this;
  }

  /** The event bus's TCP port; 0 for any free one (announced to the others through Hazelcast). */
  public int getEventBusPort() {
    return eventBusPort;
  }

  public McpClusterOptions setEventBusPort(int eventBusPort) {
    if (eventBusPort < 0 || eventBusPort > 65535) {
      throw new IllegalArgumentException("eventBusPort must be 0-65535");
    }
    this.eventBusPort = eventBusPort;
    return this;
  }

  /** The TCP-IP member list: {@code host:port}, one port each. Empty with Kubernetes discovery. */
  public List<String> getMembers() {
    return members;
  }

  public McpClusterOptions setMembers(List<String> members) {
    List<String> checked = new ArrayList<>();
    for (String member : members) {
      String trimmed = member.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      if (trimmed.matches(".*:[0-9]+-[0-9]+$")) {
        throw new IllegalArgumentException("member '" + trimmed + "' gives a port range; list each member's "
            + "address and port on its own (127.0.0.1:5701,127.0.0.1:5702)");
      }
      if (!MEMBER.matcher(trimmed).matches()) {
        throw new IllegalArgumentException("member '" + trimmed + "' is not host:port");
      }
      checked.add(trimmed);
    }
    this.members = checked;
    return this;
  }

  /** Members with another cluster name ignore this one: keeps test or staging clusters apart. */
  public String getClusterName() {
    return clusterName;
  }

  public McpClusterOptions setClusterName(String clusterName) {
    if (clusterName == null || clusterName.isBlank()) {
      throw new IllegalArgumentException("clusterName must not be empty");
    }
    this.clusterName = clusterName;
    return this;
  }

  public int getHeartbeatIntervalSeconds() {
    return heartbeatIntervalSeconds;
  }

  public McpClusterOptions setHeartbeatIntervalSeconds(int heartbeatIntervalSeconds) {
    if (heartbeatIntervalSeconds < 1) {
      throw new IllegalArgumentException("heartbeatIntervalSeconds must be positive");
    }
    this.heartbeatIntervalSeconds = heartbeatIntervalSeconds;
    return this;
  }

  /**
   * How long a member may stay silent before the others drop it. Short detects dead members fast; too short
   * drops live ones during long GC pauses or network hiccups (Hazelcast's own default is 60).
   */
  public int getMaxNoHeartbeatSeconds() {
    return maxNoHeartbeatSeconds;
  }

  public McpClusterOptions setMaxNoHeartbeatSeconds(int maxNoHeartbeatSeconds) {
    if (maxNoHeartbeatSeconds < 1) {
      throw new IllegalArgumentException("maxNoHeartbeatSeconds must be positive");
    }
    this.maxNoHeartbeatSeconds = maxNoHeartbeatSeconds;
    return this;
  }

  /**
   * Kubernetes discovery instead of a member list: an object with Hazelcast's Kubernetes discovery properties
   * ({@code namespace}, {@code service-name}, {@code service-dns}, {@code service-port}, ..., dashed or
   * camel-cased: {@code serviceName}), or null. {@code "enabled": false} keeps the object but uses the member list;
   * members and enabled Kubernetes discovery together are refused when the member starts.
   */
  public JsonObject getKubernetes() {
    return kubernetes;
  }

  public McpClusterOptions setKubernetes(JsonObject kubernetes) {
    this.kubernetes = kubernetes == null ? null : kubernetes.copy();
    return this;
  }
}
