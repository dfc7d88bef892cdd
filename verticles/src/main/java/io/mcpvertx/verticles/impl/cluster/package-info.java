/**
 * The verticles module's clustering: the cluster's membership as its cluster manager sees it (the project's one
 * reach into Vert.x internals), which nodes left, and resource updates relayed between instances.
 */
package io.mcpvertx.verticles.impl.cluster;
