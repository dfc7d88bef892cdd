package io.mcpvertx.testing;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.StatelessServer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;

/**
 * {@link StatelessTransport#engine}: {@link StatelessServer#validate}, then
 * {@link StatelessServer#serve} or {@link StatelessServer#listen} with a sink that encodes what the server emits
 * through the server's codec. A sink used off the request's context, or a message sent on a request's stream
 * after its response, is reported as a violation.
 */
final class EngineTransport implements StatelessTransport {

  private final McpServer server;
  private final StatelessServer stateless;

  EngineTransport(McpServer server) {
    this.server = server;
    this.stateless = server.stateless();
  }

  @Override
  public Future<Answer> exchange(Call call, Consumer<JsonObject> emitted) {
    Promise<Answer> promise = Promise.promise();
    call.context().runOnContext(v -> {
      JsonRpcError refused = stateless.validate(call.request());
      if (refused != null) {
        promise.complete(new Answer(0, encode(new JsonRpcErrorResponse(call.request().id(), refused))));
        return;
      }
      String method = call.request().method();
      boolean[] answered = {false};
      StatelessServer.Call served = stateless.serve(call.request(), call.principal(), message -> {
        if (Vertx.currentContext() != call.context()) {
          call.violation().accept("the sink was used off the request's context: " + message);
        }
        JsonObject received = encode(message);
        if (answered[0]) {
          // The response ended the request's stream: nothing can travel on it any more.
          call.violation().accept("a message after the response to " + method + ": " + received.encode());
        }
        emitted.accept(received);
      });
      served.response().onComplete(ar -> {
        answered[0] = true;
        if (ar.failed()) {
          promise.fail(ar.cause());
          return;
        }
        promise.complete(new Answer(0, encode(ar.result())));
      });
    });
    return promise.future();
  }

  @Override
  public Future<Stream> listen(Call call, Consumer<JsonObject> frames) {
    Promise<Stream> promise = Promise.promise();
    call.context().runOnContext(v -> {
      JsonRpcError refused = stateless.validate(call.request());
      if (refused != null) {
        promise.fail(new AssertionError("listen rejected: " + refused.message()));
        return;
      }
      StatelessServer.Subscription subscription = stateless.listen(call.request(), call.principal(), message -> {
        if (Vertx.currentContext() != call.context()) {
          call.violation().accept("the listen sink was used off the stream's context: " + message);
        }
        frames.accept(encode(message));
      });
      promise.complete(subscription::close);
    });
    return promise.future();
  }

  /** What the server emitted, encoded as a transport would. */
  private JsonObject encode(JsonRpcMessage message) {
    return new JsonObject(server.codec().encode(message));
  }
}
