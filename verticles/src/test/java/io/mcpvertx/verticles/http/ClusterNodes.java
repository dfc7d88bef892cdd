package io.mcpvertx.verticles.http;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.cluster.InstanceOptions;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceResult;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.spi.leases.memory.InMemoryLeaseStore;
import io.mcpvertx.spi.memory.InMemoryEventStore;
import io.mcpvertx.spi.sessions.memory.InMemorySessionStore;
import io.mcpvertx.spi.tasks.memory.InMemoryTaskStore;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.testing.http.StreamableHttpSession;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;

/**
 * Several instances of one MCP server as a cluster would run them: each with its own {@link McpServer},
 * {@link McpInstance} lease and {@link McpHttpServer} on its own port, sharing the event, session, task and lease
 * stores, on one Vert.x whose event bus stands for the clustered one (addresses are reachable from every
 * instance, as they are across a cluster). The in-memory stores stand for Redis.
 */
final class ClusterNodes implements AutoCloseable {

  static final String RESOURCE_URI = "memo://note";

  /** One instance. */
  static final class Node {
    final McpServer mcp;
    final McpInstance instance;
    final TestTools tools;
    final McpHttpServer http;
    private final Vertx vertx;

    private Node(Vertx vertx, McpServer mcp, McpInstance instance, TestTools tools, McpHttpServer http) {
      this.vertx = vertx;
      this.mcp = mcp;
      this.instance = instance;
      this.tools = tools;
      this.http = http;
    }

    StreamableHttp client() {
      return StreamableHttp.http1(vertx, http.actualPort());
    }

    /** The same session, seen by a client of this instance. */
    StreamableHttpSession session(StreamableHttpSession session) {
      return new StreamableHttpSession(client(), session.id(), session.version(), null);
    }
  }

  final InMemoryLeaseStore leases = InMemoryLeaseStore.create();
  final List<Node> nodes = new ArrayList<>();
  private final Vertx vertx;
  private final InMemoryEventStore events = new InMemoryEventStore(1000, 64, 600_000);
  private final InMemorySessionStore sessions;
  private final InMemoryTaskStore tasks;

  private ClusterNodes(Vertx vertx) {
    this.vertx = vertx;
    this.sessions = InMemorySessionStore.create(vertx);
    this.tasks = InMemoryTaskStore.create(vertx);
  }

  static ClusterNodes create(Vertx vertx) {
    return new ClusterNodes(vertx);
  }

  /** Starts one more instance whose lease lives {@code leaseTtlMs}, renewed every {@code renewIntervalMs}. */
  Future<Node> start(String name, long leaseTtlMs, long renewIntervalMs) {
    return start(name, leaseTtlMs, renewIntervalMs, new McpHttpServerOptions().setPort(0));
  }

  /** Starts one more instance whose endpoint has {@code httpOptions}. */
  Future<Node> start(String name, McpHttpServerOptions httpOptions) {
    return start(name, 2_000, 100, httpOptions);
  }

  private Future<Node> start(String name, long leaseTtlMs, long renewIntervalMs, McpHttpServerOptions httpOptions) {
    McpInstance instance = McpInstance.create(vertx, leases, new InstanceOptions().setName(name)
        .setLeaseTtlMs(leaseTtlMs).setRenewIntervalMs(renewIntervalMs).setOrphanSweepIntervalMs(renewIntervalMs));
    McpStores stores = McpStores.builder(vertx).tasks(tasks).events(events).sessions(sessions).leases(leases).build();
    McpServer mcp = McpServer.create(vertx, new McpServerOptions(), stores, instance);
    TestTools tools = new TestTools().register(mcp);
    mcp.resource(Resource.of(RESOURCE_URI, "note", "text/plain"),
        (uri, ctx) -> Future.succeededFuture(ResourceResult.text(uri, "text/plain", "a note")));
    McpHttpServer http = McpHttpServer.create(vertx, mcp, httpOptions);
    return instance.start().compose(v -> http.listen()).map(v -> {
      Node node = new Node(vertx, mcp, instance, tools, http);
      nodes.add(node);
      return node;
    });
  }

  Future<Node> start(String name) {
    return start(name, 2_000, 100);
  }

  @Override
  public void close() {
    for (Node node : nodes) {
      node.http.close();
      node.instance.close();
    }
    sessions.close();
  }
}
