/**
 * Redis-backed implementations of the runtime's store SPIs, shared by every instance of a horizontally scaled
 * deployment. {@link RedisStores} bundles them over one Redis client, the way a server is given them:
 * {@link RedisTaskStore} for tasks, {@link RedisEventStore} for resumable SSE streams, {@link RedisSessionStore} for
 * 2025-generation sessions and {@link RedisLeaseStore} for instance leases, session ownership and orphaned task
 * executions in a cluster, all configured by {@link RedisStoreOptions}. The in-memory stores in the runtime stay
 * the zero-setup default.
 *
 * <p>Every call is bounded by the command timeout: when Redis is away the stores fail fast as unavailable, and
 * work again as soon as it is back, without a restart.
 */
package io.mcpvertx.storage.redis;
