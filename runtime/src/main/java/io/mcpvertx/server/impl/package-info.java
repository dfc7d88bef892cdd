/**
 * Implementation of the server API, not exported: {@code McpServerImpl} wires the engines together; the 2025
 * session engine is in {@code session}, the 2026-07-28 stateless engine in {@code stateless}, the task engine both
 * task wires share in {@code tasks}, and the feature registry and dispatch in {@code features}.
 */
package io.mcpvertx.server.impl;
