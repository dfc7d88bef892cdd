/**
 * MCP protocol revisions, what each allows, and the exception that carries a JSON-RPC error.
 */
package io.mcpvertx.protocol;
