/**
 * Running the examples as OAuth-protected MCP servers: the {@code --auth-*} flags and {@code MCP_AUTH_*}
 * environment variables, and a {@code whoami} tool that shows the principal handlers see.
 */
package io.mcpvertx.examples.auth;
