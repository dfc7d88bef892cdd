package io.mcpvertx.cluster.impl;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.mcpvertx.cluster.McpClusterOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.core.spi.VertxTracerFactory;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Builds the Hazelcast configuration from {@link McpClusterOptions}, on top of the one vertx-hazelcast ships (its
 * maps and semaphores), and starts the clustered Vert.x.
 *
 * <p>Vert.x has no public accessor for a clustered instance's cluster manager, and readiness needs to ask it whether
 * this member still belongs to the cluster: so the manager of each Vert.x started here is kept beside it (weakly: a
 * closed Vert.x is forgotten with it), and a Vert.x clustered by other means counts as not clustered here.
 */
public final class HazelcastSetup {

  /**
   * The cluster manager of each Vert.x {@link #start} made, by identity ({@code Vertx} has no equality of its own).
   * Both weakly held: the Vert.x holds its manager, so the entry lives exactly as long as the Vert.x.
   */
  private static final Map<Vertx, WeakReference<ClusterManager>> MANAGERS =
      Collections.synchronizedMap(new WeakHashMap<>());

  private HazelcastSetup() {
  }

  public static Future<Vertx> start(McpClusterOptions options, VertxOptions vertxOptions,
      VertxMetricsFactory metrics, VertxTracerFactory tracer) {
    Config config;
    try {
      config = config(options);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    HazelcastClusterManager manager = new HazelcastClusterManager(config);
    EventBusOptions bus = new EventBusOptions().setHost(options.getHost()).setPort(options.getEventBusPort())
        .setClusterPublicHost(options.getHost());
    VertxBuilder builder = Vertx.builder().with(vertxOptions.setEventBusOptions(bus)).withClusterManager(manager);
    if (metrics != null) {
      builder.withMetrics(metrics);
    }
    if (tracer != null) {
      builder.withTracer(tracer);
    }
    return builder.buildClustered()
        .onSuccess(vertx -> MANAGERS.put(vertx, new WeakReference<>(manager)));
  }

  static Config config(McpClusterOptions options) {
    // The config's own property below applies once the config is loaded; what Hazelcast logs while loading it (and
    // any line before) follows the system property, and went to java.util.logging without it. A value the
    // deployment set is kept.
    if (System.getProperty("hazelcast.logging.type") == null) {
      System.setProperty("hazelcast.logging.type", "slf4j");
    }
    Config config = ConfigUtil.loadConfig();
    config.setClusterName(options.getClusterName());
    // Through SLF4J like the rest; Hazelcast logs every partition migration at INFO, so the logging
    // configurations we ship keep only its warnings (com.hazelcast at WARN).
    config.setProperty("hazelcast.logging.type", "slf4j");
    config.setProperty("hazelcast.phone.home.enabled", "false");
    // Vert.x closes Hazelcast itself, in order, when it closes; Hazelcast's own hook would race it.
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    config.setProperty("hazelcast.socket.bind.any", "false");
    config.setProperty("hazelcast.wait.seconds.before.join", "0");
    config.setProperty("hazelcast.heartbeat.interval.seconds", String.valueOf(options.getHeartbeatIntervalSeconds()));
    config.setProperty("hazelcast.max.no.heartbeat.seconds", String.valueOf(options.getMaxNoHeartbeatSeconds()));
    NetworkConfig network = config.getNetworkConfig();
    network.setPort(options.getPort()).setPortAutoIncrement(false).setPublicAddress(options.getHost() + ":"
        + options.getPort());
    network.getInterfaces().setEnabled(true).addInterface(options.getHost());
    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    JsonObject kubernetes = options.getKubernetes();
    // {"enabled": false} keeps the object in a file while the member list is used: without this check Hazelcast
    // would read the key itself and switch Kubernetes off after TCP-IP was, leaving a member that joins nobody.
    if (kubernetes != null && !"false".equalsIgnoreCase(String.valueOf(kubernetes.getValue("enabled")))) {
      if (!options.getMembers().isEmpty()) {
        throw new IllegalArgumentException("give either members (TCP-IP) or kubernetes discovery, not both");
      }
      join.getTcpIpConfig().setEnabled(false);
      join.getKubernetesConfig().setEnabled(true);
      kubernetes.forEach(e -> {
        if (!"enabled".equals(e.getKey()) && !e.getKey().startsWith("_") && e.getValue() != null) {
          join.getKubernetesConfig().setProperty(propertyName(e.getKey()), String.valueOf(e.getValue()));
        }
      });
      // In a pod, bind every interface: the pod's address is not known ahead.
      network.getInterfaces().setEnabled(false);
      network.setPublicAddress(null);
      config.setProperty("hazelcast.socket.bind.any", "true");
    } else {
      join.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(2).setMembers(options.getMembers());
    }
    return config;
  }

  /**
   * Hazelcast's Kubernetes properties are dashed ({@code service-name}); the JSON of the other options here is
   * camel-cased ({@code serviceName}). Both spellings are accepted, so either documentation can be followed.
   */
  static String propertyName(String key) {
    StringBuilder name = new StringBuilder(key.length() + 4);
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (Character.isUpperCase(c)) {
        name.append('-').append(Character.toLowerCase(c));
      } else {
        name.append(c);
      }
    }
    return name.toString();
  }

  public static int members(Vertx vertx) {
    ClusterManager manager = manager(vertx);
    if (manager == null || !manager.isActive()) {
      return 0;
    }
    return manager.getNodes().size();
  }

  public static String nodeId(Vertx vertx) {
    ClusterManager manager = manager(vertx);
    return manager == null ? null : manager.getNodeId();
  }

  public static Future<Void> joined(Vertx vertx) {
    ClusterManager manager = manager(vertx);
    if (manager == null) {
      return Future.failedFuture("not clustered");
    }
    if (!manager.isActive()) {
      return Future.failedFuture("the cluster manager is not running");
    }
    String self = manager.getNodeId();
    if (self == null || !manager.getNodes().contains(self)) {
      return Future.failedFuture("this member is not in the cluster");
    }
    return Future.succeededFuture();
  }

  private static ClusterManager manager(Vertx vertx) {
    WeakReference<ClusterManager> manager = vertx == null ? null : MANAGERS.get(vertx);
    return manager == null ? null : manager.get();
  }
}
