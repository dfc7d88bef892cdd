package io.mcpvertx.storage.redis;

import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.leases.LeaseStore;
import io.mcpvertx.spi.sessions.SessionStore;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.RespConnection;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.mcpvertx.testing.stores.EventStoreContract;
import io.mcpvertx.testing.stores.LeaseStoreContract;
import io.mcpvertx.testing.stores.SessionStoreContract;
import io.mcpvertx.testing.stores.tasks.TaskStoreContract;
import io.vertx.core.Vertx;
import io.vertx.redis.client.RedisClientType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The four contracts through a cluster-mode client against a one-node Redis Cluster, which refuses any command or
 * script whose keys span slots: the key layout's hash tags are what make the stores work in a cluster.
 */
class RedisClusterModeTest {

  @RegisterExtension
  static final RedisServerExtension REDIS = RedisServerExtension.cluster();

  private static Vertx vertx;
  private static RedisTaskStore tasks;
  private static RedisEventStore events;
  private static RedisSessionStore sessions;
  private static RedisLeaseStore leases;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    TestRedis redis = REDIS.redis();
    RedisStoreOptions options = new RedisStoreOptions().setType(RedisClientType.CLUSTER)
        .setConnectionString(redis.url()).setKeyPrefix(redis.keyPrefix()).setMaxEventsPerStream(10);
    tasks = RedisTaskStore.create(vertx, options);
    events = RedisEventStore.create(vertx, options);
    sessions = RedisSessionStore.create(vertx, options);
    leases = RedisLeaseStore.create(vertx, options);
  }

  @AfterAll
  static void stop() {
    io.vertx.core.Future.join(tasks.close(), events.close(), sessions.close(), leases.close()).toCompletionStage()
        .toCompletableFuture().join();
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }

  @Test
  void theServerRefusesKeysThatSpanSlots() {
    String prefix = REDIS.redis().keyPrefix();
    RespConnection.ErrorReply refused = assertThrows(RespConnection.ErrorReply.class,
        () -> REDIS.redis().call("MSET", prefix + "a", "1", prefix + "b", "2"));
    assertTrue(refused.getMessage().startsWith("CROSSSLOT"), refused.getMessage());
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
