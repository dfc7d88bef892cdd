/**
 * Redis-backed stores for the runtime's SPIs (tasks, sessions, events, leases), on vertx-redis-client. Only the
 * API package is exported.
 */
module io.mcpvertx.storage.redis {
  requires transitive io.mcpvertx.runtime;
  requires transitive io.vertx.redis.client;

  exports io.mcpvertx.storage.redis;
}
