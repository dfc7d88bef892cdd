/**
 * The conformance example server: the fixtures the MCP conformance suite's server scenarios call, registered on
 * an {@link io.mcpvertx.server.McpServer} by {@link io.mcpvertx.examples.conformance.ConformanceFixtures}.
 */
package io.mcpvertx.examples.conformance;
