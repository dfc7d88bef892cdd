/**
 * The runtime as verticles: one verticle per 2025 session on the event bus, tools, prompts and resources as
 * verticles anywhere in a cluster, and the transports (Streamable HTTP with resumable SSE and OAuth, stdio). Only
 * API packages are exported.
 */
module io.mcpvertx.verticles {
  requires transitive io.mcpvertx.runtime;
  requires transitive io.vertx.core;
  requires transitive io.vertx.web;
  requires transitive io.vertx.auth.oauth2;
  requires io.vertx.auth.common;
  // Netty's public header API, which Vert.x's HTTP headers implement: walking them without copying each name.
  requires io.netty.codec.http;
  requires io.netty.common;
  requires org.slf4j;

  exports io.mcpvertx.verticles;
  exports io.mcpvertx.verticles.bus;
  exports io.mcpvertx.verticles.http;
  exports io.mcpvertx.verticles.http.auth;
  exports io.mcpvertx.verticles.stdio;
}
