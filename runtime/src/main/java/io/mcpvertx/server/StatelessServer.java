package io.mcpvertx.server;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.vertx.core.Future;
import java.util.function.Function;

/**
 * Serves the stateless generation (2026-07-28): every request carries its protocol version and client
 * capabilities in {@code _meta}, there is no session, and a handler that needs client input gets the answer in a
 * retry of the same request ({@code input_required}). Obtained from {@link McpServer#stateless()}; it serves the
 * same tools, resources and prompts as the sessions do.
 *
 * <p>Transport-independent; an HTTP transport adds the routing-header checks through {@link #validate}.
 */
public interface StatelessServer {

  /** The _meta member naming the request's protocol version. */
  String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
  /** The _meta member holding the request's client capabilities. */
  String META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
  /** The _meta member naming the client. */
  String META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
  /** The _meta member with the log level the client wants for this request. */
  String META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";

  /** A request refused before it was served: the error, and the HTTP status it travels with over HTTP. */
  record Rejection(int httpStatus, JsonRpcError error) {
  }

  /** A request being served. */
  interface Call {

    /** The response: a result (with {@code resultType}) or an error. */
    Future<JsonRpcMessage> response();

    /** The client went away (its stream closed): the handler sees a cancellation and no response is due. */
    void cancel(String reason);
  }

  /** A {@code subscriptions/listen} stream. */
  interface Subscription {

    /** Ends the subscription (the client closed the stream, or the server is shutting down). */
    void close();
  }

  /**
   * Checks a request before it is served: its {@code _meta}, its protocol version, and, when {@code header} is
   * given (HTTP), the {@code MCP-Protocol-Version}, {@code Mcp-Method}, {@code Mcp-Name} and {@code Mcp-Param-*}
   * headers against the body. Null when the request may be served.
   *
   * @param header case-insensitive header lookup, or null for transports without headers
   */
  Rejection validate(JsonRpcRequest request, Function<String, String> header);

  /**
   * Serves a validated request other than {@code subscriptions/listen}. Notifications it causes (progress, and
   * logs when the request asked for them) go to {@code sink} before the response. Call it on an event loop.
   */
  Call serve(JsonRpcRequest request, Principal principal, MessageSink sink);

  /**
   * Opens a validated {@code subscriptions/listen}: the acknowledgement goes to {@code sink} at once, then the
   * notifications the client opted in to, each tagged with the subscription id. Call it on an event loop; the
   * sink is used on that same context.
   *
   * @throws io.mcpvertx.protocol.McpException when the subscription is refused (too many parties waiting on
   *     tasks, -32005); nothing was sent to {@code sink} then
   */
  Subscription listen(JsonRpcRequest request, MessageSink sink);

  /**
   * Like {@link #listen(JsonRpcRequest, MessageSink)}, for an authenticated caller: what the stream may carry
   * (task notifications, for one) is limited to what {@code principal} may see. The default ignores the principal,
   * which is right only while nothing on the stream belongs to a caller.
   *
   * @param principal the caller, or null without authorization
   */
  default Subscription listen(JsonRpcRequest request, Principal principal, MessageSink sink) {
    return listen(request, sink);
  }

  /** Whether a request of this method is {@code subscriptions/listen}. */
  static boolean isListen(JsonRpcRequest request) {
    return "subscriptions/listen".equals(request.method());
  }

  /** The HTTP status an error response of this generation travels with. */
  static int httpStatus(JsonRpcError error) {
    return switch (error.code()) {
      case JsonRpcErrorCodes.METHOD_NOT_FOUND -> 404;
      case JsonRpcErrorCodes.HEADER_MISMATCH, JsonRpcErrorCodes.CLIENT_CAPABILITY_MISSING,
          JsonRpcErrorCodes.UNSUPPORTED_PROTOCOL_VERSION, JsonRpcErrorCodes.PARSE_ERROR,
          JsonRpcErrorCodes.INVALID_REQUEST -> 400;
      default -> 200;
    };
  }
}
