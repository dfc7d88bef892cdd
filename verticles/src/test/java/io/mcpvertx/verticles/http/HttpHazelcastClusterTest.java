package io.mcpvertx.verticles.http;

import static io.mcpvertx.verticles.http.HttpChecks.assertSchemaValid;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.hazelcast.config.Config;
import com.hazelcast.config.NetworkConfig;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.cluster.InstanceOptions;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.spi.leases.memory.InMemoryLeaseStore;
import io.mcpvertx.spi.memory.InMemoryEventStore;
import io.mcpvertx.spi.sessions.memory.InMemorySessionStore;
import io.mcpvertx.spi.tasks.memory.InMemoryTaskStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two instances on a real clustered event bus (embedded Hazelcast over loopback, one Vert.x each): what a session
 * sends crosses the wire in its JSON-RPC form, so a request through the instance that does not run the session is
 * served exactly as one through the instance that does.
 */
@ExtendWith(VertxExtension.class)
class HttpHazelcastClusterTest {

  private static final String V11 = "2025-11-25";

  private final List<Vertx> members = new ArrayList<>();
  private final List<McpHttpServer> servers = new ArrayList<>();

  @AfterEach
  void close() {
    servers.forEach(McpHttpServer::close);
    members.forEach(Vertx::close);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static Future<Vertx> member(String clusterName, int port, List<Integer> ports) {
    Config config = ConfigUtil.loadConfig().setClusterName(clusterName)
        .setProperty("hazelcast.phone.home.enabled", "false")
        .setProperty("hazelcast.logging.type", "jdk")
        .setProperty("hazelcast.wait.seconds.before.join", "0");
    NetworkConfig network = config.getNetworkConfig().setPort(port).setPortAutoIncrement(false);
    network.getInterfaces().setEnabled(true).addInterface("127.0.0.1");
    network.getJoin().getMulticastConfig().setEnabled(false);
    network.getJoin().getTcpIpConfig().setEnabled(true);
    ports.forEach(p -> network.getJoin().getTcpIpConfig().addMember("127.0.0.1:" + p));
    return Vertx.builder()
        .withClusterManager(new HazelcastClusterManager(config))
        .with(new io.vertx.core.VertxOptions().setEventBusOptions(new EventBusOptions().setHost("127.0.0.1")
            .setClusterPublicHost("127.0.0.1")))
        .buildClustered();
  }

  @Test
  void aSessionRunsOnOneMemberAndIsServedThroughTheOther(Vertx vertx, VertxTestContext test) throws IOException {
    String clusterName = "mcp-test-" + UUID.randomUUID();
    List<Integer> ports = List.of(freePort(), freePort());
    InMemoryLeaseStore leases = InMemoryLeaseStore.create();
    InMemoryEventStore events = new InMemoryEventStore(1000, 64, 600_000);
    InMemorySessionStore sessions = InMemorySessionStore.create(vertx);
    InMemoryTaskStore tasks = InMemoryTaskStore.create(vertx);
    Future.all(member(clusterName, ports.get(0), ports), member(clusterName, ports.get(1), ports))
        .compose(both -> {
          List<Future<McpHttpServer>> started = new ArrayList<>();
          for (int i = 0; i < 2; i++) {
            Vertx member = both.resultAt(i);
            members.add(member);
            McpInstance instance = McpInstance.create(member, leases, new InstanceOptions().setName("member" + i));
            McpServer mcp = McpServer.create(member, new McpServerOptions(), tasks, instance);
            new TestTools().register(mcp);
            McpHttpServer http = McpHttpServer.create(member, mcp, new McpHttpServerOptions().setPort(0),
                McpHttpStores.shared(events, sessions));
            servers.add(http);
            started.add(instance.start().compose(v -> http.listen()));
          }
          return Future.all(started);
        })
        .compose(v -> McpHttpTestClient.http1(vertx, servers.get(0).actualPort()).initialize(V11))
        .compose(onFirst -> {
          McpHttpTestSession onSecond = new McpHttpTestSession(
              McpHttpTestClient.http1(vertx, servers.get(1).actualPort()), onFirst.id(), onFirst.version(), null);
          return onSecond.call("tools/call", new JsonObject().put("name", "echo")
                  .put("arguments", new JsonObject().put("text", "across the wire")))
              .compose(echo -> {
                test.verify(() -> assertEquals("across the wire",
                    echo.getJsonArray("content").getJsonObject(0).getString("text")));
                return onSecond.post(onSecond.toolCall("progress", new JsonObject().put("count", 2), "t"));
              })
              .map(progress -> {
                test.verify(() -> {
                  List<JsonObject> messages = progress.messages();
                  assertEquals(3, messages.size(), progress::toString);
                  assertSchemaValid(V11, messages.get(2), "tools/call");
                });
                return progress;
              })
              .compose(v -> leases.sessionOwner(onFirst.id()))
              .map(owner -> {
                test.verify(() -> assertEquals(true, owner.startsWith("member0-"), owner));
                return owner;
              });
        })
        .onComplete(test.succeedingThenComplete());
  }
}
