/**
 * OAuth 2.1 protected-resource support of the Streamable HTTP endpoint, as the MCP authorization specification
 * (2025-06-18 and later) asks: bearer tokens validated on every request (JWT with JWKS, or RFC 7662
 * introspection), audience bound to this server's resource URI (RFC 8707), RFC 9728 protected resource metadata,
 * RFC 6750 challenges with scope hints for step-up, and sessions bound to the authenticated principal.
 *
 * <p>Configured with {@link io.mcpvertx.verticles.http.auth.McpAuthOptions} on
 * {@link io.mcpvertx.verticles.http.McpHttpServerOptions#setAuth}. The stdio transport has no OAuth: as the
 * specification says, a stdio server takes its credentials from the environment.
 */
package io.mcpvertx.verticles.http.auth;
