/**
 * The verticles module's view of the cluster: its members as the cluster manager sees them (the project's one reach
 * into Vert.x internals), and which nodes left.
 */
package io.mcpvertx.verticles.impl.cluster;
