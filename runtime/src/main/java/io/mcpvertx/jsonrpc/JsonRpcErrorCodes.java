package io.mcpvertx.jsonrpc;

/**
 * The error codes this runtime puts on the wire, in one place: JSON-RPC's reserved codes and the ones MCP
 * defines. They are wire values, which is why they are plain ints.
 */
public final class JsonRpcErrorCodes {

  public static final int PARSE_ERROR = -32700;
  public static final int INVALID_REQUEST = -32600;
  public static final int METHOD_NOT_FOUND = -32601;
  public static final int INVALID_PARAMS = -32602;
  public static final int INTERNAL_ERROR = -32603;

  /** MCP: resource not found, as the 2025 revisions write it (2026-07-28 uses {@link #INVALID_PARAMS}). */
  public static final int RESOURCE_NOT_FOUND = -32002;
  /** MCP 2025-11-25: the tool needs a URL-mode elicitation first. */
  public static final int URL_ELICITATION_REQUIRED = -32042;

  /** Implementation-defined server errors (JSON-RPC reserves -32000 to -32099). */
  public static final int REQUEST_TIMEOUT = -32001;
  public static final int SERVER_OVERLOADED = -32005;
  public static final int REQUEST_CANCELLED = -32007;

  /**
   * A server-to-client request needs a capability the client did not declare. The code is the one 2026-07-28
   * gives this condition; older revisions leave it to the implementation, so both generations get the same one.
   */
  public static final int CLIENT_CAPABILITY_MISSING = -32021;

  /** 2026-07-28: an HTTP header is missing or does not match the body (HTTP 400). */
  public static final int HEADER_MISMATCH = -32020;
  /** 2026-07-28: the request's protocol version is not supported (HTTP 400, with the supported list). */
  public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

  private JsonRpcErrorCodes() {
  }
}
