package io.mcpvertx.verticles;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.mcpvertx.testing.FreePorts;
import io.mcpvertx.testing.LogCapture;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.slf4j.event.Level;

/**
 * One member of a real Vert.x cluster in this JVM: its own Vert.x, clustered by its own embedded Hazelcast, which
 * finds the others over TCP-IP on 127.0.0.1 (each member on its own port, multicast off, phone-home off) and takes
 * a member whose heartbeats stop for three seconds for dead.
 */
public final class ClusterNode {

  static {
    LogCapture.setLevel("com.hazelcast", Level.ERROR);
  }

  /** The members of one cluster: a unique name, so nothing else on this machine joins it, and their ports. */
  public record Cluster(String name, List<Integer> ports) {

    public static Cluster of(int members) {
      List<Integer> ports = new ArrayList<>();
      for (int i = 0; i < members; i++) {
        ports.add(freePort());
      }
      return new Cluster("mcp-features-" + UUID.randomUUID(), List.copyOf(ports));
    }
  }

  final String name;
  public final Vertx vertx;
  final HazelcastClusterManager manager;

  private ClusterNode(String name, Vertx vertx, HazelcastClusterManager manager) {
    this.name = name;
    this.vertx = vertx;
    this.manager = manager;
  }

  /** Starts member {@code index} of {@code cluster}. */
  public static Future<ClusterNode> start(String name, Cluster cluster, int index) {
    HazelcastClusterManager manager = new HazelcastClusterManager(config(cluster, cluster.ports().get(index)));
    VertxOptions options = new VertxOptions()
        .setEventBusOptions(new EventBusOptions().setHost("127.0.0.1").setPort(0));
    return Vertx.builder().with(options).withClusterManager(manager).buildClustered()
        .map(vertx -> new ClusterNode(name, vertx, manager));
  }

  /** This node's id in the cluster. */
  String nodeId() {
    return manager.getNodeId();
  }

  /** Leaves the cluster gracefully: verticles are undeployed, then the member says goodbye. */
  public Future<Void> close() {
    return vertx.close();
  }

  /**
   * Dies without a word: Hazelcast stops at once, without leaving, so the others notice only when its heartbeats
   * stop. Its Vert.x is closed afterwards, to free its threads; by then it is long out of the cluster.
   */
  void crash() {
    manager.getHazelcastInstance().getLifecycleService().terminate();
  }

  private static Config config(Cluster cluster, int port) {
    Config config = ConfigUtil.loadConfig();
    config.setClusterName(cluster.name());
    config.setProperty("hazelcast.logging.type", "slf4j");
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    config.setProperty("hazelcast.socket.bind.any", "false");
    config.setProperty("hazelcast.wait.seconds.before.join", "0");
    config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
    config.setProperty("hazelcast.max.no.heartbeat.seconds", "3");
    NetworkConfig network = config.getNetworkConfig();
    network.setPort(port).setPortAutoIncrement(false);
    network.getInterfaces().setEnabled(true).addInterface("127.0.0.1");
    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(1)
        .setMembers(cluster.ports().stream().map(p -> "127.0.0.1:" + p).toList());
    return config;
  }

  private static int freePort() {
    return FreePorts.one();
  }

}
