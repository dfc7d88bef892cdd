/**
 * Redis-backed implementations of the runtime's store SPIs (tasks, SSE events, sessions), shared by every
 * instance of a horizontally scaled deployment. The in-memory stores in the runtime stay the zero-setup default.
 */
package io.mcpvertx.storage.redis;
