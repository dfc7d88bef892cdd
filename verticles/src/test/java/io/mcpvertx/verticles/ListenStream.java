package io.mcpvertx.verticles;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.StatelessServer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A 2026-07-28 {@code subscriptions/listen} stream opened on a server directly, as a transport would: what the
 * server sends on it is kept, in order, as wire JSON. Confined to the context it was opened on.
 */
final class ListenStream {

  private final Context context;
  private final McpServer server;
  private final List<JsonObject> frames = new ArrayList<>();
  private final List<JsonObject> unawaited = new ArrayList<>();
  private final List<Map.Entry<String, Promise<JsonObject>>> waiters = new ArrayList<>();
  private StatelessServer.Subscription subscription;

  private ListenStream(Context context, McpServer server) {
    this.context = context;
    this.server = server;
  }

  /** Opens a stream asking for {@code notifications} (the listen request's filter); yields once acknowledged. */
  static Future<ListenStream> open(Vertx vertx, McpServer server, JsonObject notifications) {
    ListenStream stream = new ListenStream(vertx.getOrCreateContext(), server);
    Promise<ListenStream> opened = Promise.promise();
    stream.context.runOnContext(v -> {
      JsonObject meta = new JsonObject()
          .put(StatelessServer.META_PROTOCOL_VERSION, "2026-07-28")
          .put(StatelessServer.META_CLIENT_INFO, new JsonObject().put("name", "listen-stream").put("version", "1"))
          .put(StatelessServer.META_CLIENT_CAPABILITIES, new JsonObject());
      JsonRpcRequest request = new JsonRpcRequest(JsonRpcId.of("listen"), "subscriptions/listen",
          new JsonObject().put("notifications", notifications).put("_meta", meta));
      JsonRpcError refused = server.stateless().validate(request);
      if (refused != null) {
        opened.fail(new AssertionError("listen refused: " + refused.message()));
        return;
      }
      stream.subscription = server.stateless().listen(request, stream::receive);
      stream.await("notifications/subscriptions/acknowledged").map(stream).onComplete(opened);
    });
    return opened.future();
  }

  /** The next notification with {@code method} not awaited before. */
  Future<JsonObject> await(String method) {
    Promise<JsonObject> promise = Promise.promise();
    context.runOnContext(v -> {
      for (Iterator<JsonObject> it = unawaited.iterator(); it.hasNext(); ) {
        JsonObject frame = it.next();
        if (method.equals(frame.getString("method"))) {
          it.remove();
          promise.complete(frame);
          return;
        }
      }
      waiters.add(Map.entry(method, promise));
    });
    return promise.future();
  }

  /** How many notifications with {@code method} came so far. */
  Future<Integer> count(String method) {
    Promise<Integer> promise = Promise.promise();
    context.runOnContext(v -> promise.complete((int) frames.stream()
        .filter(f -> method.equals(f.getString("method"))).count()));
    return promise.future();
  }

  void close() {
    context.runOnContext(v -> subscription.close());
  }

  private void receive(JsonRpcMessage message) {
    JsonObject frame = new JsonObject(server.codec().encode(message));
    frames.add(frame);
    for (Iterator<Map.Entry<String, Promise<JsonObject>>> it = waiters.iterator(); it.hasNext(); ) {
      Map.Entry<String, Promise<JsonObject>> waiter = it.next();
      if (waiter.getKey().equals(frame.getString("method"))) {
        it.remove();
        waiter.getValue().complete(frame);
        return;
      }
    }
    unawaited.add(frame);
  }
}
