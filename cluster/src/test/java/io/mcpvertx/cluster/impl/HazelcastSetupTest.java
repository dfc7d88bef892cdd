package io.mcpvertx.cluster.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import io.mcpvertx.cluster.McpClusterOptions;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Hazelcast configuration built from the options, read back without starting a member. */
class HazelcastSetupTest {

  @Test
  void aMemberListJoinsOverTcpIpOnExactlyItsOwnPortWithFastFailureDetection() {
    Config config = HazelcastSetup.config(new McpClusterOptions().setHost("127.0.0.1").setPort(5802)
        .setMembers(List.of("127.0.0.1:5801", "127.0.0.1:5802")).setClusterName("staging")
        .setMaxNoHeartbeatSeconds(7));
    JoinConfig join = config.getNetworkConfig().getJoin();
    assertTrue(join.getTcpIpConfig().isEnabled());
    assertEquals(List.of("127.0.0.1:5801", "127.0.0.1:5802"), join.getTcpIpConfig().getMembers());
    assertFalse(join.getMulticastConfig().isEnabled());
    assertFalse(join.getAutoDetectionConfig().isEnabled());
    assertFalse(join.getKubernetesConfig().isEnabled());
    assertEquals(5802, config.getNetworkConfig().getPort());
    assertFalse(config.getNetworkConfig().isPortAutoIncrement());
    assertEquals("127.0.0.1:5802", config.getNetworkConfig().getPublicAddress());
    assertEquals("staging", config.getClusterName());
    assertEquals("7", config.getProperty("hazelcast.max.no.heartbeat.seconds"));
    assertEquals("1", config.getProperty("hazelcast.heartbeat.interval.seconds"));
    assertEquals("false", config.getProperty("hazelcast.phone.home.enabled"));
  }

  @Test
  void kubernetesDiscoveryTakesDashedOrCamelCasedPropertiesAndBindsEveryInterface() {
    Config config = HazelcastSetup.config(new McpClusterOptions().setKubernetes(new JsonObject()
        .put("enabled", true).put("namespace", "mcp").put("serviceName", "mcp-hazelcast")
        .put("service-port", 5701).put("_note", "comments are skipped")));
    JoinConfig join = config.getNetworkConfig().getJoin();
    assertTrue(join.getKubernetesConfig().isEnabled());
    assertFalse(join.getTcpIpConfig().isEnabled());
    assertEquals(Map.of("namespace", "mcp", "service-name", "mcp-hazelcast", "service-port", "5701"),
        join.getKubernetesConfig().getProperties());
    assertFalse(config.getNetworkConfig().getInterfaces().isEnabled());
    assertNull(config.getNetworkConfig().getPublicAddress());
  }

  @Test
  void aKubernetesObjectThatIsSwitchedOffLeavesTheMemberList() {
    Config config = HazelcastSetup.config(new McpClusterOptions().setMembers(List.of("127.0.0.1:5701"))
        .setKubernetes(new JsonObject().put("enabled", false).put("serviceDns", "mcp.default.svc")));
    JoinConfig join = config.getNetworkConfig().getJoin();
    assertTrue(join.getTcpIpConfig().isEnabled());
    assertFalse(join.getKubernetesConfig().isEnabled());
    assertEquals(List.of("127.0.0.1:5701"), join.getTcpIpConfig().getMembers());
  }

  @Test
  void membersAndKubernetesDiscoveryTogetherAreRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HazelcastSetup.config(
        new McpClusterOptions().setMembers(List.of("127.0.0.1:5701"))
            .setKubernetes(new JsonObject().put("service-name", "mcp"))));
    assertTrue(e.getMessage().contains("not both"), e.getMessage());
  }
}
