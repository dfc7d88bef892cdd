package io.mcpvertx.verticles.http;

import static io.mcpvertx.verticles.http.HttpChecks.assertSchemaValid;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.cluster.InstanceOptions;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.spi.leases.memory.InMemoryLeaseStore;
import io.mcpvertx.spi.memory.InMemoryEventStore;
import io.mcpvertx.spi.sessions.memory.InMemorySessionStore;
import io.mcpvertx.spi.tasks.memory.InMemoryTaskStore;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.testing.http.StreamableHttpSession;
import io.mcpvertx.verticles.ClusterNode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
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

  private final List<ClusterNode> members = new ArrayList<>();
  private final List<McpHttpServer> servers = new ArrayList<>();

  @AfterEach
  void close() {
    servers.forEach(McpHttpServer::close);
    members.forEach(ClusterNode::close);
  }

  @Test
  void aSessionRunsOnOneMemberAndIsServedThroughTheOther(Vertx vertx, VertxTestContext test) {
    ClusterNode.Cluster cluster = ClusterNode.Cluster.of(2);
    InMemoryLeaseStore leases = InMemoryLeaseStore.create();
    InMemoryEventStore events = new InMemoryEventStore(1000, 64, 600_000);
    InMemorySessionStore sessions = InMemorySessionStore.create(vertx);
    InMemoryTaskStore tasks = InMemoryTaskStore.create(vertx);
    Future.all(ClusterNode.start("first", cluster, 0), ClusterNode.start("second", cluster, 1))
        .compose(both -> {
          List<Future<McpHttpServer>> started = new ArrayList<>();
          for (int i = 0; i < 2; i++) {
            ClusterNode node = both.resultAt(i);
            members.add(node);
            Vertx member = node.vertx;
            McpInstance instance = McpInstance.create(member, leases, new InstanceOptions().setName("member" + i));
            McpStores stores = McpStores.builder(member).tasks(tasks).events(events).sessions(sessions)
                .leases(leases).build();
            McpServer mcp = McpServer.create(member, new McpServerOptions(), stores, instance);
            new TestTools().register(mcp);
            McpHttpServer http = McpHttpServer.create(member, mcp, new McpHttpServerOptions().setPort(0));
            servers.add(http);
            started.add(instance.start().compose(v -> http.listen()));
          }
          return Future.all(started);
        })
        .compose(v -> StreamableHttp.http1(vertx, servers.get(0).actualPort()).initialize(V11))
        .compose(onFirst -> {
          StreamableHttpSession onSecond = new StreamableHttpSession(
              StreamableHttp.http1(vertx, servers.get(1).actualPort()), onFirst.id(), onFirst.version(), null);
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
