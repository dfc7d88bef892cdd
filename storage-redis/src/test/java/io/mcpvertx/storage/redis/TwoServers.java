package io.mcpvertx.storage.redis;

import static io.mcpvertx.storage.redis.Futures.await;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.StatelessServer;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Two server instances sharing one Redis, as a horizontally scaled deployment has them: each its own Vert.x, its
 * own {@link RedisTaskStore} (own client and subscription) and its own {@link McpServer}, with the same
 * {@link TaskFixtures} registered on both. Closing it closes both.
 */
final class TwoServers implements AutoCloseable {

  static final String LEGACY = "2025-11-25";
  static final String STATELESS = "2026-07-28";
  static final String EXTENSION = "io.modelcontextprotocol/tasks";

  final TaskFixtures fixtures = new TaskFixtures();
  final Instance a;
  final Instance b;

  TwoServers(RedisStoreOptions storeOptions, TaskOptions taskOptions) {
    McpServerOptions serverOptions = new McpServerOptions().setTaskOptions(taskOptions);
    a = new Instance("A", storeOptions, serverOptions, fixtures);
    b = new Instance("B", storeOptions, serverOptions, fixtures);
  }

  static Principal principal(String subject) {
    return new Principal("https://issuer.test", subject, Set.of());
  }

  @Override
  public void close() {
    a.close();
    b.close();
  }

  /** One server instance. */
  static final class Instance {

    final String name;
    final Vertx vertx;
    final RedisStores stores;
    final TaskStore store;
    final McpServer server;
    private final AtomicLong ids = new AtomicLong();

    Instance(String name, RedisStoreOptions storeOptions, McpServerOptions serverOptions, TaskFixtures fixtures) {
      this.name = name;
      this.vertx = Vertx.vertx();
      this.stores = RedisStores.create(vertx, storeOptions);
      this.store = stores.tasks();
      this.server = McpServer.create(vertx, serverOptions, stores);
      fixtures.register(server, name);
    }

    /** An initialized 2025-11-25 session of {@code principal} on this instance. */
    McpTestClient session(Principal principal) {
      McpTestClient client = await(McpTestClient.inProcess(vertx, server, principal));
      JsonObject result = await(client.initialize(LEGACY));
      if (!result.getJsonObject("capabilities").containsKey("tasks")) {
        throw new AssertionError("no tasks capability offered: " + result.encode());
      }
      return client;
    }

    /**
     * A 2026-07-28 request of {@code principal} on this instance, declaring the tasks extension and elicitation,
     * validated and served as a transport without headers would; yields the response as on the wire.
     */
    Future<JsonObject> stateless(String method, JsonObject params, Principal principal) {
      JsonObject meta = new JsonObject()
          .put(StatelessServer.META_PROTOCOL_VERSION, STATELESS)
          .put(StatelessServer.META_CLIENT_INFO, new JsonObject().put("name", "two-servers").put("version", "1"))
          .put(StatelessServer.META_CLIENT_CAPABILITIES, new JsonObject()
              .put("elicitation", new JsonObject())
              .put("extensions", new JsonObject().put(EXTENSION, new JsonObject())));
      JsonRpcRequest request = new JsonRpcRequest(JsonRpcId.of(ids.incrementAndGet()), method,
          params.copy().put("_meta", meta));
      Promise<JsonObject> response = Promise.promise();
      vertx.getOrCreateContext().runOnContext(v -> {
        StatelessServer stateless = server.stateless();
        JsonRpcError refused = stateless.validate(request);
        if (refused != null) {
          response.complete(wire(new JsonRpcErrorResponse(request.id(), refused)));
          return;
        }
        stateless.serve(request, principal, message -> { }).response().map(this::wire).onComplete(response);
      });
      return response.future();
    }

    /**
     * Opens a 2026-07-28 {@code subscriptions/listen} of {@code principal} on this instance, asking for
     * {@code notifications}, as a transport would; every message the stream carries is added to {@code frames} as on
     * the wire. Yields the subscription once it is open.
     */
    Future<StatelessServer.Subscription> listen(JsonObject notifications, Principal principal,
        List<JsonObject> frames) {
      JsonRpcRequest request = new JsonRpcRequest(JsonRpcId.of(ids.incrementAndGet()), "subscriptions/listen",
          new JsonObject().put("notifications", notifications).put("_meta", new JsonObject()
              .put(StatelessServer.META_PROTOCOL_VERSION, STATELESS)
              .put(StatelessServer.META_CLIENT_INFO, new JsonObject().put("name", "two-servers").put("version", "1"))
              .put(StatelessServer.META_CLIENT_CAPABILITIES, new JsonObject()
                  .put("extensions", new JsonObject().put(EXTENSION, new JsonObject())))));
      Promise<StatelessServer.Subscription> opened = Promise.promise();
      vertx.getOrCreateContext().runOnContext(v -> {
        StatelessServer stateless = server.stateless();
        JsonRpcError refused = stateless.validate(request);
        if (refused != null) {
          opened.fail(new AssertionError("listen refused: " + refused.message()));
          return;
        }
        opened.complete(stateless.listen(request, principal, message -> frames.add(wire(message))));
      });
      return opened.future();
    }

    private JsonObject wire(JsonRpcMessage message) {
      return new JsonObject(server.codec().encode(message));
    }

    void close() {
      await(stores.close());
      await(vertx.close());
    }
  }
}
