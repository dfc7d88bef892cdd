package io.mcpvertx.verticles.http.impl;

import java.util.Set;

/**
 * The HTTP header names of MCP's Streamable HTTP transport, the only place they are spelled. Vert.x looks headers
 * up case-insensitively, so the spelling here is what this server writes and lists in CORS answers.
 */
final class McpHeaders {

  /** The session a request of the 2025 generation belongs to; set on the answer to {@code initialize}. */
  static final String SESSION_ID = "Mcp-Session-Id";
  /** The protocol revision of a request (2025 sessions after initialization, and every 2026-07-28 request). */
  static final String PROTOCOL_VERSION = "MCP-Protocol-Version";
  /** 2026-07-28: the JSON-RPC method of the body. */
  static final String METHOD = "Mcp-Method";
  /** 2026-07-28: the tool, prompt, resource or task the body names. */
  static final String NAME = "Mcp-Name";
  /** 2026-07-28: prefix of the headers mirroring tool arguments marked {@code x-mcp-header} in the input schema. */
  static final String PARAM_PREFIX = "Mcp-Param-";
  /** SSE resumption: the last event the client received. */
  static final String LAST_EVENT_ID = "Last-Event-ID";
  /** The authorization challenge of a 401 or 403. */
  static final String WWW_AUTHENTICATE = "WWW-Authenticate";

  /** What a browser may send to the endpoint (CORS). */
  static final Set<String> CORS_ALLOWED = Set.of("Content-Type", "Accept", "Authorization", SESSION_ID,
      PROTOCOL_VERSION, LAST_EVENT_ID, METHOD, NAME);
  /** What a browser may read from an answer (CORS). */
  static final Set<String> CORS_EXPOSED = Set.of(SESSION_ID, WWW_AUTHENTICATE);

  private McpHeaders() {
  }
}
