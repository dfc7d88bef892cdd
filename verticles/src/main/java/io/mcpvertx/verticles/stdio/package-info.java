/**
 * The stdio transport: newline-delimited JSON-RPC on a process's standard streams.
 */
package io.mcpvertx.verticles.stdio;
