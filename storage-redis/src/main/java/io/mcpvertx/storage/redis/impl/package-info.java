/**
 * Implementation of the Redis stores; not for use by applications.
 */
package io.mcpvertx.storage.redis.impl;
