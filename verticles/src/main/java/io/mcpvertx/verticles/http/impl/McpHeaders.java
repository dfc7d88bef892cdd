package io.mcpvertx.verticles.http.impl;

import io.vertx.core.http.HttpHeaders;
import java.util.Set;

/**
 * The HTTP header names of MCP's Streamable HTTP transport, the only place they are spelled. Vert.x looks headers
 * up case-insensitively, so the spelling here is what this server writes and lists in CORS answers.
 */
final class McpHeaders {

  /** The session a request of the 2025 generation belongs to; set on the answer to {@code initialize}. */
  static final CharSequence SESSION_ID = HttpHeaders.createOptimized("Mcp-Session-Id");
  /** The protocol revision of a request (2025 sessions after initialization, and every 2026-07-28 request). */
  static final CharSequence PROTOCOL_VERSION = HttpHeaders.createOptimized("MCP-Protocol-Version");
  /** 2026-07-28: the JSON-RPC method of the body. */
  static final CharSequence METHOD = HttpHeaders.createOptimized("Mcp-Method");
  /** 2026-07-28: the tool, prompt, resource or task the body names. */
  static final CharSequence NAME = HttpHeaders.createOptimized("Mcp-Name");
  /** 2026-07-28: prefix of the headers mirroring tool arguments marked {@code x-mcp-header} in the input schema. */
  static final String PARAM_PREFIX = "Mcp-Param-";
  /** SSE resumption: the last event the client received. */
  static final CharSequence LAST_EVENT_ID = HttpHeaders.createOptimized("Last-Event-ID");
  /** The authorization challenge of a 401 or 403. */
  static final CharSequence WWW_AUTHENTICATE = HttpHeaders.createOptimized("WWW-Authenticate");

  /** The media type of a JSON answer, as a header value Vert.x writes without encoding it again. */
  static final CharSequence APPLICATION_JSON = HttpHeaders.createOptimized("application/json");

  /** What a browser may send to the endpoint (CORS). */
  static final Set<String> CORS_ALLOWED = Set.of("Content-Type", "Accept", "Authorization",
      SESSION_ID.toString(), PROTOCOL_VERSION.toString(), LAST_EVENT_ID.toString(), METHOD.toString(),
      NAME.toString());
  /** What a browser may read from an answer (CORS). */
  static final Set<String> CORS_EXPOSED = Set.of(SESSION_ID.toString(),
      WWW_AUTHENTICATE.toString());

  private McpHeaders() {
  }
}
