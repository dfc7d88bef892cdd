package io.mcpvertx.storage.redis;

import io.mcpvertx.spi.EventStore;
import io.mcpvertx.storage.redis.impl.RedisEventStoreImpl;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;

/**
 * An {@link EventStore} on Redis Streams, shared by every instance: a client may resume an SSE stream on any of
 * them.
 *
 * <p>Each SSE stream is a Redis stream bounded by an approximate {@code MAXLEN} and by age, under a TTL refreshed
 * by every append. A resumption reads only what follows the client's {@code Last-Event-ID}, so its cost grows
 * with the events missed, not with the stream. A client whose last event was trimmed away still resumes if it
 * missed nothing. Event ids are {@code <streamId>_<entryId>}: unique within the session, and naming their stream.
 * Needs Redis 6.2 or newer.
 *
 * <p>When Redis cannot be reached or does not answer within the command timeout, operations fail with
 * {@link StoreUnavailableException}.
 */
public interface RedisEventStore extends EventStore {

  /** A store with a client of its own, made from {@code options}; {@link #close()} closes it. */
  static RedisEventStore create(Vertx vertx, RedisStoreOptions options) {
    return new RedisEventStoreImpl(Redis.createClient(vertx, options.toRedisOptions()), options, true);
  }

  /**
   * A store on a client the caller owns and closes. Only the key prefix, the timeout and the bounds of
   * {@code options} apply; the connection settings are the client's.
   */
  static RedisEventStore create(Vertx vertx, Redis client, RedisStoreOptions options) {
    return new RedisEventStoreImpl(client, options, false);
  }

  /** Closes the client if the store made it. */
  Future<Void> close();
}
