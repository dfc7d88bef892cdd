package io.mcpvertx.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class McpClusterTest {

  private final List<Vertx> members = new ArrayList<>();

  @AfterEach
  void close() {
    members.forEach(Vertx::close);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Test
  void twoMembersListingEachOtherFormOneClusterWithOneEventBus(Vertx vertx, VertxTestContext test)
      throws IOException {
    int first = freePort();
    int second = freePort();
    List<String> list = List.of("127.0.0.1:" + first, "127.0.0.1:" + second);
    String name = "mcp-cluster-test-" + UUID.randomUUID();
    McpClusterOptions options = new McpClusterOptions().setClusterName(name).setMembers(list);
    Future.all(McpCluster.start(new McpClusterOptions(options).setPort(first)),
            McpCluster.start(new McpClusterOptions(options).setPort(second)))
        .compose(both -> {
          Vertx a = both.resultAt(0);
          Vertx b = both.resultAt(1);
          members.add(a);
          members.add(b);
          test.verify(() -> assertNotEquals(McpCluster.nodeId(a), McpCluster.nodeId(b)));
          b.eventBus().<String>consumer("greetings", m -> m.reply("hello " + m.body()));
          return McpCluster.joined(a).compose(v -> McpCluster.joined(b))
              .compose(v -> retry(a, 50));
        })
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertEquals("hello a", reply);
          test.completeNow();
        })));
  }

  /** The consumer's registration reaches the other member shortly after it is made. */
  private static Future<String> retry(Vertx from, int tries) {
    return from.eventBus().<String>request("greetings", "a").map(m -> m.body()).recover(e -> {
      if (tries <= 1) {
        return Future.failedFuture(e);
      }
      io.vertx.core.Promise<String> later = io.vertx.core.Promise.promise();
      from.setTimer(100, t -> retry(from, tries - 1).onComplete(later));
      return later.future();
    });
  }

  @Test
  void aVertxThatIsNotClusteredIsNotReady(Vertx vertx, VertxTestContext test) {
    McpCluster.joined(vertx).onComplete(test.failing(e -> test.verify(() -> {
      assertTrue(e.getMessage().contains("not clustered"));
      test.completeNow();
    })));
  }

  @Test
  void aPortRangeIsRefusedWithAHint() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new McpClusterOptions().setMembers(List.of("127.0.0.1:5701-5703")));
    assertTrue(e.getMessage().contains("each member"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new McpClusterOptions().setMembers(List.of("nohost")));
  }

  @Test
  void optionsRoundTripThroughJson() {
    McpClusterOptions options = new McpClusterOptions().setHost("10.0.0.1").setPort(5801).setEventBusPort(6000)
        .setMembers(List.of("10.0.0.1:5801", "10.0.0.2:5801")).setClusterName("prod").setMaxNoHeartbeatSeconds(10)
        .setKubernetes(new JsonObject().put("service-name", "mcp"));
    assertEquals(options.toJson(), new McpClusterOptions(options.toJson()).toJson());
  }
}
