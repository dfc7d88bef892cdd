package io.mcpvertx.storage.redis;

import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.leases.LeaseStore;
import io.mcpvertx.spi.sessions.SessionStore;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.storage.redis.testing.RedisClusterExtension;
import io.mcpvertx.storage.redis.testing.TestRedisCluster;
import io.mcpvertx.testing.stores.EventStoreContract;
import io.mcpvertx.testing.stores.LeaseStoreContract;
import io.mcpvertx.testing.stores.SessionStoreContract;
import io.mcpvertx.testing.stores.tasks.TaskStoreContract;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.redis.client.RedisClientType;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static io.mcpvertx.storage.redis.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The four contracts through a cluster-mode client against a Redis Cluster of three masters and three replicas:
 * every script keeps to one slot while the keys of different sessions and streams land on different masters.
 */
class RedisClusterIT {

  @RegisterExtension
  static final RedisClusterExtension CLUSTER = new RedisClusterExtension();

  private static Vertx vertx;
  private static RedisTaskStore tasks;
  private static RedisEventStore events;
  private static RedisSessionStore sessions;
  private static RedisLeaseStore leases;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    TestRedisCluster cluster = CLUSTER.cluster();
    RedisStoreOptions options = new RedisStoreOptions().setType(RedisClientType.CLUSTER)
        .setConnectionStrings(cluster.urls()).setKeyPrefix(cluster.keyPrefix()).setMaxEventsPerStream(10);
    tasks = RedisTaskStore.create(vertx, options);
    events = RedisEventStore.create(vertx, options);
    sessions = RedisSessionStore.create(vertx, options);
    leases = RedisLeaseStore.create(vertx, options);
  }

  @AfterAll
  static void stop() {
    await(Future.join(tasks.close(), events.close(), sessions.close(), leases.close()));
    await(vertx.close());
  }

  @Test
  void theEventsOfDifferentSessionsSpreadOverEveryMaster() {
    TestRedisCluster cluster = CLUSTER.cluster();
    for (int i = 0; i < 60; i++) {
      await(events.append(UUID.randomUUID().toString(), "s", Buffer.buffer("{}")));
    }
    Map<Integer, Long> spread = cluster.keysPerMaster();
    assertEquals(3, spread.size(), "masters " + spread);
    spread.forEach((master, keys) -> assertTrue(keys > 0, "no keys on master " + master + ": " + spread));
  }

  @Nested
  class Tasks extends TaskStoreContract {
    @Override
    protected TaskStore store() {
      return tasks;
    }

    @Override
    protected Vertx vertx() {
      return vertx;
    }
  }

  @Nested
  class Events extends EventStoreContract {
    @Override
    protected EventStore store() {
      return events;
    }
  }

  @Nested
  class Sessions extends SessionStoreContract {
    @Override
    protected SessionStore store() {
      return sessions;
    }
  }

  @Nested
  class Leases extends LeaseStoreContract {
    @Override
    protected LeaseStore store() {
      return leases;
    }
  }
}
