package io.mcpvertx.storage.redis;

import static io.mcpvertx.storage.redis.Futures.await;
import static io.mcpvertx.storage.redis.Futures.awaitFailure;

import io.mcpvertx.storage.redis.testing.RedisServerExtension;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The Redis stores' readiness ping: it fails as unavailable while Redis is down and succeeds again once it is back. */
class RedisStorePingTest {

  @RegisterExtension
  static final RedisServerExtension REDIS = new RedisServerExtension();

  @Test
  void pingFailsWhileRedisIsDownAndSucceedsOnceItIsBack() {
    TestRedis redis = REDIS.redis();
    redis.assumePrivate();
    Vertx vertx = Vertx.vertx();
    RedisStoreOptions options = new RedisStoreOptions().setConnectionString(redis.url())
        .setKeyPrefix(redis.keyPrefix()).setReconnectDelayMs(50).setCommandTimeoutMs(1_000);
    RedisEventStore events = RedisEventStore.create(vertx, options);
    RedisSessionStore sessions = RedisSessionStore.create(vertx, options);
    RedisTaskStore tasks = RedisTaskStore.create(vertx, options);
    RedisLeaseStore leases = RedisLeaseStore.create(vertx, options);
    List<Supplier<Future<Void>>> pings = List.of(events::ping, sessions::ping, tasks::ping, leases::ping);
    try {
      pings.forEach(ping -> await(ping.get()));
      redis.stop();
      try {
        // Each store fails with its own unavailable type (the task store's is a TaskStoreException).
        pings.forEach(ping -> awaitFailure(ping.get()));
      } finally {
        redis.restart();
      }
      pings.forEach(RedisStorePingTest::succeedsEventually);
    } finally {
      await(Future.join(events.close(), sessions.close(), tasks.close(), leases.close()));
      await(vertx.close());
    }
  }

  /** Bounded polling while the client reconnects. */
  private static void succeedsEventually(Supplier<Future<Void>> ping) {
    for (int attempt = 0; Futures.outcome(ping.get()) != null; attempt++) {
      if (attempt == 200) {
        throw new AssertionError("the ping still fails after Redis came back");
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
