/**
 * The transport-independent MCP runtime: the JSON-RPC codec, the protocol revisions, the 2025 session engine and
 * the 2026-07-28 stateless engine, durable tasks, and the store SPIs with their in-memory implementations.
 * Only API and SPI packages are exported; {@code io.mcpvertx.server.impl} and below are internal.
 */
module io.mcpvertx.runtime {
  requires transitive io.vertx.core;
  requires com.fasterxml.jackson.core;
  requires transitive com.fasterxml.jackson.databind; // JsonNodes hands out Jackson trees
  requires com.networknt.schema;

  exports io.mcpvertx.jsonrpc;
  exports io.mcpvertx.protocol;
  exports io.mcpvertx.server;
  exports io.mcpvertx.server.client;
  exports io.mcpvertx.server.cluster;
  exports io.mcpvertx.server.completion;
  exports io.mcpvertx.server.observe;
  exports io.mcpvertx.server.content;
  exports io.mcpvertx.server.prompts;
  exports io.mcpvertx.server.resources;
  exports io.mcpvertx.server.tools;
  exports io.mcpvertx.spi;
  exports io.mcpvertx.spi.leases;
  exports io.mcpvertx.spi.leases.memory;
  exports io.mcpvertx.spi.memory;
  exports io.mcpvertx.spi.sessions;
  exports io.mcpvertx.spi.sessions.memory;
  exports io.mcpvertx.spi.tasks;
  exports io.mcpvertx.spi.tasks.memory;
}
