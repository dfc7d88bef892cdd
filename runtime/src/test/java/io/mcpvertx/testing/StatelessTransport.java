package io.mcpvertx.testing;

import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.Principal;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.function.Consumer;

/**
 * How a {@link StatelessTestClient} reaches a 2026-07-28 server: straight into the engine of an {@link McpServer}
 * in this JVM ({@link #engine}), or over Streamable HTTP ({@code io.mcpvertx.testing.http.StreamableHttp}).
 * Whatever the transport, it hands back wire JSON, which the client checks against the schema.
 */
public interface StatelessTransport {

  /**
   * One request as the client built it.
   *
   * @param headers the routing headers an HTTP client derives from the request (lower-case names); the engine,
   *     which knows no transport, ignores them
   * @param principal who sends it (null: anonymous); only transports in this JVM can say
   * @param context the client's context, on which the transport completes its futures and calls the consumers
   * @param violation where the transport reports what it saw go wrong on its side of the wire
   */
  record Call(JsonRpcRequest request, Map<String, String> headers, Principal principal, Context context,
      Consumer<String> violation) {
  }

  /** The response to a request, the HTTP status it travelled with (0 without HTTP), and its HTTP headers. */
  record Answer(int status, JsonObject response, MultiMap headers) {

    public Answer(int status, JsonObject response) {
      this(status, response, MultiMap.caseInsensitiveMultiMap());
    }
  }

  /** An open {@code subscriptions/listen} stream. */
  interface Stream {
    void close();
  }

  /** Sends {@code call}; {@code emitted} gets what the server sent on the request's stream before the answer. */
  Future<Answer> exchange(Call call, Consumer<JsonObject> emitted);

  /** Opens {@code call} as {@code subscriptions/listen}; {@code frames} gets each frame, in order. */
  Future<Stream> listen(Call call, Consumer<JsonObject> frames);

  /** Drives the stateless engine of {@code server} directly, as an HTTP transport would. */
  static StatelessTransport engine(McpServer server) {
    return new EngineTransport(server);
  }
}
