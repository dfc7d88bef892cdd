package io.mcpvertx.storage.redis;

import io.mcpvertx.spi.sessions.SessionStore;
import io.mcpvertx.storage.redis.impl.RedisSessionStoreImpl;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;

/**
 * A {@link SessionStore} in Redis, shared by every instance: any of them can take over a session another one
 * created, and a session outlives the instance that served it.
 *
 * <p>A session is one key holding its record as JSON, written whole by {@code SET}; its lifetime is the key's Redis
 * expiry, so an idle session is gone at once everywhere and nothing sweeps. Every call is one command, one round
 * trip. The key carries the session id as its cluster hash tag, so it lives in the same slot as the session's SSE
 * events.
 *
 * <p>When Redis cannot be reached or does not answer within the command timeout, calls fail with
 * {@link StoreUnavailableException}; they succeed again as soon as it is back. Safe from any thread.
 */
public interface RedisSessionStore extends SessionStore {

  /** A store with a client of its own, made from {@code options}; {@link #close()} closes it. */
  static RedisSessionStore create(Vertx vertx, RedisStoreOptions options) {
    return new RedisSessionStoreImpl(Redis.createClient(vertx, options.toRedisOptions()), options, true);
  }

  /**
   * A store on a client the caller owns and closes. Only the key prefix and the timeout of {@code options} apply;
   * the connection settings are the client's.
   */
  static RedisSessionStore create(Vertx vertx, Redis client, RedisStoreOptions options) {
    return new RedisSessionStoreImpl(client, options, false);
  }
}
