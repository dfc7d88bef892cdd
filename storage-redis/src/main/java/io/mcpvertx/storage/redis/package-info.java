/**
 * Redis-backed implementations of the runtime's store SPIs, shared by every instance of a horizontally scaled
 * deployment: {@link io.mcpvertx.storage.redis.RedisTaskStore} for tasks,
 * {@link io.mcpvertx.storage.redis.RedisEventStore} for resumable SSE streams and
 * {@link io.mcpvertx.storage.redis.RedisSessionStore} for 2025-generation sessions and
 * {@link io.mcpvertx.storage.redis.RedisLeaseStore} for instance leases, session ownership and orphaned task
 * executions in a cluster, all configured by
 * {@link io.mcpvertx.storage.redis.RedisStoreOptions}. The in-memory stores in the runtime stay the zero-setup
 * default.
 *
 * <p>Every call is bounded by the command timeout: when Redis is away the stores fail fast as unavailable, and
 * work again as soon as it is back, without a restart.
 */
package io.mcpvertx.storage.redis;
