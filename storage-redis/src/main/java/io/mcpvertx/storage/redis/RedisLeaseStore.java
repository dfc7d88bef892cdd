package io.mcpvertx.storage.redis;

import io.mcpvertx.spi.leases.LeaseStore;
import io.mcpvertx.storage.redis.impl.RedisLeaseStoreImpl;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;

/**
 * A {@link LeaseStore} in Redis, shared by every instance of a deployment: Redis's clock decides when a lease has
 * lapsed, and every claim and sweep is one atomic script, so instances whose clocks disagree still never both own a
 * session or both settle an orphan.
 *
 * <p>A lease is a key with a Redis expiry (set with {@code PX}, renewed by {@code PEXPIRE}); a claim is a key naming
 * its owner, granted over an owner only when the owner's lease key is gone. The keys share the hash tag
 * {@code {leases}} (see {@code RedisKeys}), so in a Redis Cluster they all live on one shard.
 *
 * <p>An id is refused by {@link #register} while its lease is live or executions recorded under it wait for a
 * sweeper; a lapsed lease leaves no key behind, so beyond that the store relies on ids being new for every start
 * (as {@code McpInstance} makes them).
 *
 * <p>Expiries are points in time on Redis's clock, and persisted as such: a lease survives a restart of Redis that
 * is shorter than its remaining lifetime, and is lost after a longer one. Writes Redis had not persisted when it
 * crashed are lost (see docs/shared-stores.md, "Leases").
 *
 * <p>When Redis cannot be reached or does not answer within the command timeout, calls fail with
 * {@link StoreUnavailableException}. Safe from any thread.
 */
public interface RedisLeaseStore extends LeaseStore {

  /**
   * Instances a sweep ({@link #takeOrphans}) examines at most per call, so one call stays cheap however many
   * instances are indexed: a random sample of distinct indexed instances. Instances beyond it wait for a later
   * sweep; live ones stay indexed, so with more indexed instances than this a dead one may take a few sweeps to
   * be found.
   */
  int SWEEP_SAMPLE = 100;

  /** A store with a client of its own, made from {@code options}; {@link #close()} closes it. */
  static RedisLeaseStore create(Vertx vertx, RedisStoreOptions options) {
    return new RedisLeaseStoreImpl(Redis.createClient(vertx, options.toRedisOptions()), options, true);
  }

  /**
   * A store on a client the caller owns and closes. Only the key prefix and the timeout of {@code options} apply;
   * the connection settings are the client's.
   */
  static RedisLeaseStore create(Vertx vertx, Redis client, RedisStoreOptions options) {
    return new RedisLeaseStoreImpl(client, options, false);
  }
}
