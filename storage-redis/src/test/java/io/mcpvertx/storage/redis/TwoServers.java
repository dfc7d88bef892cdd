package io.mcpvertx.storage.redis;

import static io.mcpvertx.storage.redis.Futures.await;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.Set;

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
    /** This instance's 2026-07-28 client, driving its engine directly. */
    final StatelessTestClient client;

    Instance(String name, RedisStoreOptions storeOptions, McpServerOptions serverOptions, TaskFixtures fixtures) {
      this.name = name;
      this.vertx = Vertx.vertx();
      this.stores = RedisStores.create(vertx, storeOptions);
      this.store = stores.tasks();
      this.server = McpServer.create(vertx, serverOptions, stores);
      fixtures.register(server, name);
      this.client = StatelessTestClient.engine(vertx, server);
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
      return client.request(method, params).capabilities(new JsonObject()
              .put("elicitation", new JsonObject())
              .put("extensions", new JsonObject().put(EXTENSION, new JsonObject())))
          .principal(principal).send().map(StatelessTestClient.Exchange::response);
    }

    /**
     * Opens a 2026-07-28 {@code subscriptions/listen} of {@code principal} on this instance, asking for
     * {@code notifications}, as a transport without headers would. Yields the stream once it is open.
     */
    Future<StatelessTestClient.Listening> listen(JsonObject notifications, Principal principal) {
      return client.request("subscriptions/listen", new JsonObject().put("notifications", notifications))
          .capabilities(new JsonObject().put("extensions", new JsonObject().put(EXTENSION, new JsonObject())))
          .principal(principal).listen();
    }

    void close() {
      await(stores.close());
      await(vertx.close());
    }
  }
}
