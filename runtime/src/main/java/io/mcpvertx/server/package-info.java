/**
 * The server API: {@link io.mcpvertx.server.McpServer} (what a server offers), {@link io.mcpvertx.server.McpSession}
 * (one client's session, independent of transport) and the {@link io.mcpvertx.server.RequestContext} handlers see.
 */
package io.mcpvertx.server;
