package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.StatelessServer;
import io.mcpvertx.verticles.http.ResponseMode;
import io.mcpvertx.verticles.http.impl.HttpErrors.Refusal;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.Set;

/**
 * The stateless generation (2026-07-28) on the shared endpoint. Requests are served on the HTTP verticle's own
 * event loop, with no session and no event-bus hop. A request's stream carries its notifications and then its
 * response (JSON when the response comes first); closing the stream cancels the request. {@code
 * subscriptions/listen} keeps its stream open for the notifications it opted in to. No event ids: these
 * streams are not resumable.
 */
final class StatelessHttp {

  private final HttpEndpoint endpoint;
  private final StatelessServer engine;
  private final Set<SseWriter> listeners;

  StatelessHttp(HttpEndpoint endpoint, Set<SseWriter> listeners) {
    this.endpoint = endpoint;
    this.engine = endpoint.server.stateless();
    this.listeners = listeners;
  }

  /** Serves a POST of the stateless generation for {@code principal} (null without auth). */
  void post(HttpServerRequest request, HttpServerResponse response, Decoded decoded, Principal principal) {
    if (decoded instanceof Decoded.Batch) {
      HttpErrors.reject(response, Refusal.BAD_REQUEST, JsonRpcErrorCodes.INVALID_REQUEST,
          "Invalid Request: protocol version 2026-07-28 has no JSON-RPC batches");
      return;
    }
    JsonRpcMessage message = ((Decoded.Message) decoded).message();
    if (!(message instanceof JsonRpcRequest call)) {
      // Without a session there is nothing a notification or a response could belong to.
      response.setStatusCode(202).end();
      return;
    }
    JsonRpcError refused = StatelessHeaders.repeated(request.headers());
    if (refused == null) {
      refused = StatelessHeaders.check(engine, call, request::getHeader);
    }
    if (refused != null) {
      HttpErrors.reject(response, Refusal.BAD_REQUEST, call.id(), refused);
      return;
    }
    if (StatelessServer.isListen(call)) {
      listen(call, principal, response);
      return;
    }
    serve(call, principal, response);
  }

  private void serve(JsonRpcRequest call, Principal principal, HttpServerResponse response) {
    RequestStream stream = new RequestStream(response);
    StatelessServer.Call served = engine.serve(call, principal, stream);
    Future<JsonRpcMessage> answer = served.response();
    if (answer.isComplete()) {
      // Answered before serve returned, as most calls are: nothing is left to cancel if the client goes.
      stream.answer(answer.result());
      return;
    }
    response.closeHandler(v -> served.cancel("The client closed the request's stream"));
    answer.onSuccess(stream::answer);
  }

  /**
   * The response of one request: its notifications as they come, which make it an SSE stream, then its answer,
   * which ends it (as JSON when nothing came before and the options allow it).
   */
  private final class RequestStream implements MessageSink {

    private final HttpServerResponse response;
    private SseWriter sse;

    RequestStream(HttpServerResponse response) {
      this.response = response;
    }

    @Override
    public void send(JsonRpcMessage message) {
      if (sse == null) {
        sse = new SseWriter(response, endpoint.options.getMaxStreamQueueBytes(), endpoint.observer);
        sse.start();
      }
      sse.event(null, endpoint.codec.encode(message));
    }

    void answer(JsonRpcMessage answer) {
      if (response.closed() || response.ended()) {
        return;
      }
      if (sse == null && endpoint.options.getResponseMode() != ResponseMode.SSE) {
        int status = answer instanceof JsonRpcErrorResponse error ? HttpErrors.statusOf(error.error()) : 200;
        response.setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, McpHeaders.APPLICATION_JSON)
            .end(endpoint.codec.encode(answer));
        return;
      }
      send(answer);
      sse.end();
    }
  }

  private void listen(JsonRpcRequest call, Principal principal, HttpServerResponse response) {
    SseWriter sse = new SseWriter(response, endpoint.options.getMaxStreamQueueBytes(), endpoint.observer);
    sse.start();
    StatelessServer.Subscription subscription;
    try {
      subscription = engine.listen(call, principal, message -> {
        sse.event(null, endpoint.codec.encode(message));
        if (!sse.isOpen()) {
          response.reset();
        }
      });
    } catch (McpException e) {
      // Refused before anything was sent: the stream carries the error response, and ends.
      sse.event(null, endpoint.codec.encode(new JsonRpcErrorResponse(call.id(), e.error())));
      sse.end();
      return;
    }
    listeners.add(sse);
    response.closeHandler(v -> {
      listeners.remove(sse);
      subscription.close();
    });
  }
}
