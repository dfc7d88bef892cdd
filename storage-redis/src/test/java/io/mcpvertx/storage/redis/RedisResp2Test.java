package io.mcpvertx.storage.redis;

import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.leases.LeaseStore;
import io.mcpvertx.spi.sessions.SessionStore;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.mcpvertx.testing.stores.EventStoreContract;
import io.mcpvertx.testing.stores.LeaseStoreContract;
import io.mcpvertx.testing.stores.SessionStoreContract;
import io.mcpvertx.testing.stores.tasks.TaskStoreContract;
import io.vertx.core.Vertx;
import io.vertx.redis.client.ProtocolVersion;
import io.vertx.redis.client.Redis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static io.mcpvertx.storage.redis.Futures.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The four contracts over RESP2, on one client the caller made and shares between the stores. Over RESP2 replies
 * are flat arrays rather than maps, and pub/sub messages arrive as plain arrays rather than pushes.
 */
class RedisResp2Test {

  @RegisterExtension
  static final RedisServerExtension REDIS = new RedisServerExtension();

  private static Vertx vertx;
  private static Redis client;
  private static RedisTaskStore tasks;
  private static RedisEventStore events;
  private static RedisSessionStore sessions;
  private static RedisLeaseStore leases;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    TestRedis redis = REDIS.redis();
    RedisStoreOptions options = new RedisStoreOptions().setConnectionString(redis.url())
        .setKeyPrefix(redis.keyPrefix()).setMaxEventsPerStream(10).setPingIntervalMs(50);
    client = Redis.createClient(vertx, options.toRedisOptions().setPreferredProtocolVersion(ProtocolVersion.RESP2));
    tasks = RedisTaskStore.create(vertx, client, options);
    events = RedisEventStore.create(vertx, client, options);
    sessions = RedisSessionStore.create(vertx, client, options);
    leases = RedisLeaseStore.create(vertx, client, options);
  }

  @AfterAll
  static void stop() {
    await(tasks.close());
    await(events.close());
    await(sessions.close());
    await(leases.close());
    await(client.close());
    await(vertx.close());
  }

  @Test
  void theSubscriptionSpeaksResp2() {
    REDIS.redis().assumePrivate();
    TaskStore.Registration registration = await(tasks.listen(change -> { }));
    String pubsub = String.valueOf(REDIS.redis().call("CLIENT", "LIST", "TYPE", "pubsub"));
    assertTrue(pubsub.contains("resp=2"), pubsub);
    await(registration.unregister());
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
