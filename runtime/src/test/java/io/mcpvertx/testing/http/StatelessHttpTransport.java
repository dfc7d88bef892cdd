package io.mcpvertx.testing.http;

import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.testing.StatelessTransport;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;

/**
 * {@link StatelessTransport} over Streamable HTTP: each request is a POST carrying its routing headers; the
 * response is the JSON body, or the event of the SSE stream that answers the request (the events before it are
 * what the server emitted on the request's stream). A listen stream's events are its frames.
 */
final class StatelessHttpTransport implements StatelessTransport {

  private final StreamableHttp http;

  StatelessHttpTransport(StreamableHttp http) {
    this.http = http;
  }

  @Override
  public Future<Answer> exchange(Call call, Consumer<JsonObject> emitted) {
    if (call.principal() != null) {
      return Future.failedFuture(new AssertionError("HTTP carries no principal: give the client a bearer token"));
    }
    Object id = call.request().id().wireValue();
    Promise<JsonObject> response = Promise.promise();
    return open(call).compose(stream -> {
      stream.forEach(event -> {
        if (event.hasMessage()) {
          JsonObject message = event.message();
          if (SseStream.isResponseTo(message, id)) {
            response.tryComplete(message);
          } else if (response.future().isComplete()) {
            call.violation().accept("a message after the response to " + call.request().method() + ": "
                + message.encode());
          } else {
            emitted.accept(message);
          }
        }
      });
      return stream.reply().compose(reply -> {
        if (!reply.isSse() && reply.body().length() > 0) {
          response.tryComplete(reply.json());
        }
        response.tryFail(new AssertionError("no response to " + id + " in " + reply));
        return response.future().map(r -> new Answer(reply.status(), r, reply.headers()));
      });
    });
  }

  @Override
  public Future<Stream> listen(Call call, Consumer<JsonObject> frames) {
    if (call.principal() != null) {
      return Future.failedFuture(new AssertionError("HTTP carries no principal: give the client a bearer token"));
    }
    return open(call).compose(stream -> {
      if (stream.status() != 200 || !stream.isSse()) {
        return stream.reply().transform(ar -> Future.failedFuture(new AssertionError("listen rejected: "
            + (ar.succeeded() ? ar.result() : "HTTP " + stream.status()))));
      }
      stream.forEach(event -> {
        if (event.hasMessage()) {
          frames.accept(event.message());
        }
      });
      return Future.succeededFuture((Stream) stream::drop);
    });
  }

  private Future<SseStream> open(Call call) {
    MultiMap headers = StreamableHttp.postHeaders();
    call.headers().forEach(headers::add);
    return http.open(http.options(HttpMethod.POST), headers, json(call.request()).toBuffer());
  }

  static JsonObject json(JsonRpcRequest request) {
    JsonObject json = new JsonObject().put("jsonrpc", "2.0").put("id", request.id().wireValue())
        .put("method", request.method());
    return request.params() == null ? json : json.put("params", request.params());
  }
}
