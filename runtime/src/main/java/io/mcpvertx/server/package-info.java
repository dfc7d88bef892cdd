/**
 * The server API: {@link io.mcpvertx.server.McpServer} (what a server offers), {@link io.mcpvertx.server.McpSession}
 * (one client's session, independent of transport), the handler interfaces, and the
 * {@link io.mcpvertx.server.RequestContext} handlers see. The protocol's data types live in the feature packages
 * ({@code tools}, {@code resources}, {@code prompts}, {@code completion}, {@code content}, {@code client}).
 */
package io.mcpvertx.server;
