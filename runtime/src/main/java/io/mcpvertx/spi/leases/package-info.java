/**
 * Instance leases: which instance of a deployment owns each session, and which one runs each task, so a dead
 * instance's work is taken over exactly once. {@link io.mcpvertx.spi.leases.memory.InMemoryLeaseStore} serves the
 * instances of one JVM; the Redis store serves a cluster.
 */
package io.mcpvertx.spi.leases;
