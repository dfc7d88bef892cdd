package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.testing.StatelessTransport;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A {@link StatelessTransport} that does what the HTTP transport does around the engine, without a socket:
 * {@link StatelessHeaders#check} with the request's headers (a refusal travels with
 * {@link HttpErrors.Refusal#BAD_REQUEST}), then the engine, whose error answers travel with
 * {@link HttpErrors#statusOf}. Lets header tests send headers a conforming client never would.
 */
final class HeaderCheckingTransport implements StatelessTransport {

  private final McpServer server;
  private final StatelessTransport engine;

  HeaderCheckingTransport(McpServer server) {
    this.server = server;
    this.engine = StatelessTransport.engine(server);
  }

  @Override
  public Future<Answer> exchange(Call call, Consumer<JsonObject> emitted) {
    JsonRpcError refused = StatelessHeaders.check(server.stateless(), call.request(), headers(call));
    if (refused != null) {
      JsonObject response = new JsonObject(server.codec().encode(
          new JsonRpcErrorResponse(call.request().id(), refused)));
      return Future.succeededFuture(new Answer(HttpErrors.Refusal.BAD_REQUEST.status, response));
    }
    return engine.exchange(call, emitted).map(answer -> new Answer(statusOf(answer.response()),
        answer.response(), answer.headers()));
  }

  @Override
  public Future<Stream> listen(Call call, Consumer<JsonObject> frames) {
    JsonRpcError refused = StatelessHeaders.check(server.stateless(), call.request(), headers(call));
    if (refused != null) {
      return Future.failedFuture(new AssertionError("listen refused: " + refused.message()));
    }
    return engine.listen(call, frames);
  }

  private static Function<CharSequence, String> headers(Call call) {
    return name -> call.headers().get(name.toString().toLowerCase(Locale.ROOT));
  }

  private static int statusOf(JsonObject response) {
    if (!(response.getValue("error") instanceof JsonObject error)) {
      return 200;
    }
    return HttpErrors.statusOf(new JsonRpcError(error.getInteger("code"), error.getString("message")));
  }
}
