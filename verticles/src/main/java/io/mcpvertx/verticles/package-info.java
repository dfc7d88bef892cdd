/**
 * MCP on the Vert.x event bus: session verticles, feature verticles and the codecs that carry JSON-RPC messages.
 */
package io.mcpvertx.verticles;
