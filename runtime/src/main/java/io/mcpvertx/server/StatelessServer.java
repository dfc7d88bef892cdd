package io.mcpvertx.server;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.tools.Tool;
import io.vertx.core.Future;
import java.util.Optional;

/**
 * Serves the stateless generation (2026-07-28): every request carries its protocol version and client
 * capabilities in {@code _meta}, there is no session, and a handler that needs client input gets the answer in a
 * retry of the same request ({@code input_required}). Obtained from {@link McpServer#stateless()}; it serves the
 * same tools, resources and prompts as the sessions do.
 *
 * <p>Transport-independent: it speaks JSON-RPC only. A transport adds its own checks (the HTTP transport compares
 * its routing headers with the body, reading a tool's input schema through {@link #tool}) and decides how an error
 * travels (over HTTP, with which status).
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
   * Checks a request before it is served, in this order: its {@code _meta} (-32602), its protocol version (-32022),
   * then the client capabilities its parameters need (-32021). Null when the request may be served; otherwise the
   * error that refuses it, to be answered with the request's id.
   */
  JsonRpcError validate(JsonRpcRequest request);

  /**
   * The tool of this name as it is served now, or empty. A transport reads its input schema: the HTTP transport
   * checks the arguments marked {@code x-mcp-header} against the headers that mirror them.
   */
  Optional<Tool> tool(String name);

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
   * @throws McpException when the subscription is refused (too many parties waiting on
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
}
