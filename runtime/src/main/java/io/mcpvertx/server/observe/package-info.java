/**
 * Observation of a server, after the fact and without dependencies: {@link io.mcpvertx.server.observe.McpObserver}
 * is told what a server did (requests served, sessions, tasks, streams, authorization refusals). The metrics module
 * implements it on Micrometer; none is installed by default, and then it costs a field check per event.
 */
package io.mcpvertx.server.observe;
