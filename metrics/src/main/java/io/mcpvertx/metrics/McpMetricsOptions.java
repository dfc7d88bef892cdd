package io.mcpvertx.metrics;

import io.vertx.core.json.JsonObject;
import java.util.Objects;

/** Options of {@link McpMetrics}: where the scrape endpoint listens, and whether Vert.x's own metrics are kept. */
public class McpMetricsOptions {

  public static final String DEFAULT_HOST = "0.0.0.0";
  /** The port conventionally used by Prometheus exporters of OpenTelemetry-style metrics. */
  public static final int DEFAULT_PORT = 9464;
  public static final String DEFAULT_PATH = "/metrics";
  public static final boolean DEFAULT_VERTX_METRICS = true;
  public static final boolean DEFAULT_JVM_METRICS = true;

  private String host;
  private int port;
  private String path;
  private boolean vertxMetrics;
  private boolean jvmMetrics;

  public McpMetricsOptions() {
    host = DEFAULT_HOST;
    port = DEFAULT_PORT;
    path = DEFAULT_PATH;
    vertxMetrics = DEFAULT_VERTX_METRICS;
    jvmMetrics = DEFAULT_JVM_METRICS;
  }

  public McpMetricsOptions(McpMetricsOptions other) {
    this(other.toJson());
  }

  /** Reads what {@link #toJson()} writes: an absent key keeps its default, and every value goes through its setter. */
  public McpMetricsOptions(JsonObject json) {
    this();
    setHost(json.getString("host", host));
    setPort(json.getInteger("port", port));
    setPath(json.getString("path", path));
    setVertxMetrics(json.getBoolean("vertxMetrics", vertxMetrics));
    setJvmMetrics(json.getBoolean("jvmMetrics", jvmMetrics));
  }

  public JsonObject toJson() {
    return new JsonObject().put("host", host).put("port", port).put("path", path).put("vertxMetrics", vertxMetrics)
        .put("jvmMetrics", jvmMetrics);
  }

  public String getHost() {
    return host;
  }

  /** The address the scrape endpoint binds. */
  public McpMetricsOptions setHost(String host) {
    this.host = Objects.requireNonNull(host, "host");
    return this;
  }

  public int getPort() {
    return port;
  }

  /** The port of the scrape endpoint; 0 for any free port (its actual port is in the endpoint's server). */
  public McpMetricsOptions setPort(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be between 0 and 65535");
    }
    this.port = port;
    return this;
  }

  public String getPath() {
    return path;
  }

  /** The path Prometheus scrapes; other paths get 404. */
  public McpMetricsOptions setPath(String path) {
    if (path == null || !path.startsWith("/")) {
      throw new IllegalArgumentException("path must start with /");
    }
    this.path = path;
    return this;
  }

  public boolean isVertxMetrics() {
    return vertxMetrics;
  }

  /** Whether Vert.x's own HTTP, event-bus and pool metrics are kept (when Vert.x is built with them). */
  public McpMetricsOptions setVertxMetrics(boolean vertxMetrics) {
    this.vertxMetrics = vertxMetrics;
    return this;
  }

  public boolean isJvmMetrics() {
    return jvmMetrics;
  }

  /** Whether the JVM's memory, GC, thread and class-loading metrics are kept. */
  public McpMetricsOptions setJvmMetrics(boolean jvmMetrics) {
    this.jvmMetrics = jvmMetrics;
    return this;
  }
}
