/**
 * The event-bus conventions of MCP verticles, which any transport on the bus follows: the address of a session,
 * the headers that route what it emits, the batch body, and the codecs that carry JSON-RPC messages (by reference
 * on a local hop, in the wire form across a cluster).
 */
package io.mcpvertx.verticles.bus;
