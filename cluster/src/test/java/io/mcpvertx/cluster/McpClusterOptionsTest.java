package io.mcpvertx.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class McpClusterOptionsTest {

  @Test
  void hasItsDefaults() {
    McpClusterOptions options = new McpClusterOptions();
    assertEquals(McpClusterOptions.DEFAULT_HOST, options.getHost());
    assertEquals(McpClusterOptions.DEFAULT_PORT, options.getPort());
    assertEquals(McpClusterOptions.DEFAULT_EVENT_BUS_PORT, options.getEventBusPort());
    assertTrue(options.getMembers().isEmpty());
    assertEquals(McpClusterOptions.DEFAULT_CLUSTER_NAME, options.getClusterName());
    assertEquals(McpClusterOptions.DEFAULT_HEARTBEAT_INTERVAL_SECONDS, options.getHeartbeatIntervalSeconds());
    assertEquals(McpClusterOptions.DEFAULT_MAX_NO_HEARTBEAT_SECONDS, options.getMaxNoHeartbeatSeconds());
    assertNull(options.getKubernetes());
  }

  @Test
  void theCopyHasEveryValueAndIsIndependent() {
    McpClusterOptions original = changed();
    McpClusterOptions copy = new McpClusterOptions(original);
    assertEquals(original.toJson(), copy.toJson());
    original.getKubernetes().put("namespace", "other");
    original.setPort(5901);
    assertEquals("mcp", copy.getKubernetes().getString("namespace"));
    assertEquals(5801, copy.getPort());
  }

  @Test
  void survivesAJsonRoundTripAndKeepsDefaultsForAbsentKeys() {
    JsonObject json = changed().toJson();
    assertEquals(json, new McpClusterOptions(json).toJson());
    assertEquals(new McpClusterOptions().toJson(), new McpClusterOptions(new JsonObject()).toJson());
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("invalidValues")
  void refusesAnInvalidValueAlikeBySetterAndByJson(String key, Object value, Consumer<McpClusterOptions> setter) {
    IllegalArgumentException bySetter = assertThrows(IllegalArgumentException.class,
        () -> setter.accept(new McpClusterOptions()));
    IllegalArgumentException byJson = assertThrows(IllegalArgumentException.class,
        () -> new McpClusterOptions(new JsonObject().put(key, value)));
    assertEquals(bySetter.getMessage(), byJson.getMessage());
  }

  static Stream<Arguments> invalidValues() {
    return Stream.of(
        Arguments.of("host", "", (Consumer<McpClusterOptions>) o -> o.setHost("")),
        Arguments.of("port", 0, (Consumer<McpClusterOptions>) o -> o.setPort(0)),
        Arguments.of("eventBusPort", 70_000, (Consumer<McpClusterOptions>) o -> o.setEventBusPort(70_000)),
        Arguments.of("members", new JsonArray().add("127.0.0.1:5701-5703"),
            (Consumer<McpClusterOptions>) o -> o.setMembers(List.of("127.0.0.1:5701-5703"))),
        Arguments.of("clusterName", "", (Consumer<McpClusterOptions>) o -> o.setClusterName("")),
        Arguments.of("heartbeatIntervalSeconds", 0,
            (Consumer<McpClusterOptions>) o -> o.setHeartbeatIntervalSeconds(0)),
        Arguments.of("maxNoHeartbeatSeconds", -1, (Consumer<McpClusterOptions>) o -> o.setMaxNoHeartbeatSeconds(-1)));
  }

  private static McpClusterOptions changed() {
    return new McpClusterOptions().setHost("10.0.0.1").setPort(5801).setEventBusPort(6000)
        .setMembers(List.of("10.0.0.1:5801", "10.0.0.2:5801")).setClusterName("prod")
        .setHeartbeatIntervalSeconds(2).setMaxNoHeartbeatSeconds(9)
        .setKubernetes(new JsonObject().put("namespace", "mcp").put("enabled", false));
  }
}
