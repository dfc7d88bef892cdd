package io.mcpvertx.server.impl.tracing;

import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.tracing.McpSpan;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A request's sink that ends the request's span when its answer passes (or when it is abandoned), whichever path
 * of the engine answered it: so every early refusal ends its span as the handler's result does. Everything else
 * passes through unchanged. Made only when tracing is on. Used on the session's context.
 */
public final class TracedSink implements MessageSink {

  private final MessageSink sink;
  private final JsonRpcId requestId;
  private final McpSpan span;
  private boolean ended;

  public TracedSink(MessageSink sink, JsonRpcId requestId, McpSpan span) {
    this.sink = sink;
    this.requestId = requestId;
    this.span = span;
  }

  public McpSpan span() {
    return span;
  }

  @Override
  public void send(JsonRpcMessage message) {
    observe(message);
    sink.send(message);
  }

  @Override
  public void sendBatch(List<JsonRpcMessage> responses) {
    responses.forEach(this::observe);
    sink.sendBatch(responses);
  }

  @Override
  public void abandoned(JsonRpcId id) {
    if (!ended && requestId.equals(id)) {
      ended = true;
      span.abandon();
    }
    sink.abandoned(id);
  }

  @Override
  public boolean resumable() {
    return sink.resumable();
  }

  @Override
  public void closeSseStream(long retryMs) {
    sink.closeSseStream(retryMs);
  }

  private void observe(JsonRpcMessage message) {
    if (ended) {
      return;
    }
    if (message instanceof JsonRpcResponse response && requestId.equals(response.id())) {
      ended = true;
      span.end(null, isToolError(response.result()));
    } else if (message instanceof JsonRpcErrorResponse error && requestId.equals(error.id())) {
      ended = true;
      span.end(error.error(), false);
    }
  }

  static boolean isToolError(JsonObject result) {
    return result != null && Boolean.TRUE.equals(result.getValue("isError"));
  }

  /** Ends {@code span} from a response already made (the stateless engine's). */
  public static void end(McpSpan span, JsonRpcMessage answer) {
    if (answer instanceof JsonRpcResponse response) {
      span.end(null, isToolError(response.result()));
    } else if (answer instanceof JsonRpcErrorResponse error) {
      span.end(error.error(), false);
    } else {
      span.abandon();
    }
  }
}
