package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.StatelessServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

/**
 * Picks the generation a request on the shared endpoint belongs to: the 2025 session revisions (2024-11-05 to
 * 2025-11-25, served by session verticles) or 2026-07-28 (stateless, served on the HTTP verticle itself).
 */
final class GenerationPicker {

  /** The two generations one endpoint serves. */
  enum Generation {
    /** 2024-11-05 to 2025-11-25: {@code initialize}, then requests naming their {@code Mcp-Session-Id}. */
    SESSIONS,
    /** 2026-07-28: every request complete in itself, its revision and capabilities in {@code _meta}. */
    STATELESS
  }

  private GenerationPicker() {
  }

  /**
   * The generation of a POST: stateless when the request's {@code _meta} names a protocol version (modern
   * per-request metadata selects the stateless generation; a {@code Mcp-Session-Id} beside it is ignored, as
   * 2026-07-28 asks), or when, without a session id, the version header names a revision that has no sessions
   * (or one unknown here, which the stateless checks then refuse with the versions supported).
   */
  static Generation forPost(HttpServerRequest request, Decoded decoded) {
    if (decoded instanceof Decoded.Message m && m.message() instanceof JsonRpcRequest r
        && r.paramsOrEmpty().getValue("_meta") instanceof JsonObject meta
        && meta.containsKey(StatelessServer.META_PROTOCOL_VERSION)) {
      return Generation.STATELESS;
    }
    if (request.getHeader(McpHeaders.SESSION_ID) != null) {
      return Generation.SESSIONS;
    }
    String version = request.getHeader(McpHeaders.PROTOCOL_VERSION);
    boolean sessionless = version != null && ProtocolVersion.fromId(version)
        .map(v -> v.supports(ProtocolFeature.STATELESS)).orElse(true);
    return sessionless ? Generation.STATELESS : Generation.SESSIONS;
  }

  /**
   * The generation of a GET or DELETE: stateless (which has neither, so it gets 405) only when, without a session
   * id, the version header names a known revision without sessions.
   */
  static Generation forGetOrDelete(HttpServerRequest request) {
    String version = request.getHeader(McpHeaders.PROTOCOL_VERSION);
    boolean sessionless = request.getHeader(McpHeaders.SESSION_ID) == null && version != null
        && ProtocolVersion.fromId(version).map(v -> v.supports(ProtocolFeature.STATELESS)).orElse(false);
    return sessionless ? Generation.STATELESS : Generation.SESSIONS;
  }
}
