/**
 * JSON-RPC 2.0: typed messages and ids, and the one codec that turns bytes into them and back, with limits.
 */
package io.mcpvertx.jsonrpc;
