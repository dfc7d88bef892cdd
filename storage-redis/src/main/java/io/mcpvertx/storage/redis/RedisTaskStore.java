package io.mcpvertx.storage.redis;

import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.TaskStoreException;
import io.mcpvertx.storage.redis.impl.RedisTaskStoreImpl;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;

/**
 * A {@link TaskStore} in Redis, shared by every instance: tasks survive any instance, and a change made on one
 * wakes listeners on all.
 *
 * <p>Each protocol step is one Lua script, atomic in Redis and one round trip: status transitions, terminal
 * immutability, results, input bookkeeping and the owner's limit are decided there, and the change is published
 * in the same script. A task's TTL is a Redis expiry, so an expired task is gone at once everywhere; the owner's
 * indexes drop expired entries as they meet them, and nothing depends on a sweeper. A create succeeds once the
 * master acknowledged the write and, if {@link RedisStoreOptions#setWaitReplicas configured}, that many replicas
 * did.
 *
 * <p>Listeners share one subscription on a connection of its own, which is re-established whenever it drops;
 * after a re-subscription every listener gets {@link TaskChange#resync()}. When Redis
 * cannot be reached or does not answer within the command timeout, calls fail with
 * {@link TaskStoreException.Reason#UNAVAILABLE}; they succeed again as soon as it is back.
 *
 * <p>A task's keys carry its owner's hash tag, and {@link #newTaskId} puts that tag in the id, so that a create
 * checks the owner's limit and updates the owner's index atomically in one slot, while the tasks of different
 * owners spread over a Redis Cluster's masters; {@link #create} refuses ids not made for the task's owner. The
 * subscription's timers run on the context the store is
 * created on: create it outside any verticle, or in one that lives as long as the store's users. Needs Redis
 * 7.0 or newer.
 */
public interface RedisTaskStore extends TaskStore {

  /** A store with a client of its own, made from {@code options}; {@link #close()} closes it. */
  static RedisTaskStore create(Vertx vertx, RedisStoreOptions options) {
    return new RedisTaskStoreImpl(vertx, Redis.createClient(vertx, options.toRedisOptions()), options, true);
  }

  /**
   * A store on a client the caller owns and closes. Only the key prefix, the timeouts and the WAIT settings of
   * {@code options} apply; the connection settings are the client's. The subscription takes one connection of
   * the client for itself.
   */
  static RedisTaskStore create(Vertx vertx, Redis client, RedisStoreOptions options) {
    return new RedisTaskStoreImpl(vertx, client, options, false);
  }
}
