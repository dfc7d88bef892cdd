package io.mcpvertx.tracing.impl;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.server.tracing.McpSpan;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.vertx.core.json.JsonObject;

/** One MCP request's span, and the context it is current in (with the client's baggage, if it sent any). */
final class OtelMcpSpan implements McpSpan {

  static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
  static final AttributeKey<String> STATUS_CODE = AttributeKey.stringKey("rpc.response.status_code");

  private final Span span;
  private final Context context;
  private final TextMapPropagator propagator;

  OtelMcpSpan(Span span, Context context, TextMapPropagator propagator) {
    this.span = span;
    this.context = context;
    this.propagator = propagator;
  }

  @Override
  public Scope makeCurrent() {
    io.opentelemetry.context.Scope scope = context.makeCurrent();
    return scope::close;
  }

  @Override
  public void inject(JsonObject meta) {
    propagator.inject(context, meta, MetaCarrier.INSTANCE);
  }

  @Override
  public String traceparent() {
    SpanContext sc = span.getSpanContext();
    return sc.isValid() ? "00-" + sc.getTraceId() + "-" + sc.getSpanId() + "-" + sc.getTraceFlags().asHex() : null;
  }

  @Override
  public String traceId() {
    SpanContext sc = span.getSpanContext();
    return sc.isValid() ? sc.getTraceId() : null;
  }

  @Override
  public String spanId() {
    SpanContext sc = span.getSpanContext();
    return sc.isValid() ? sc.getSpanId() : null;
  }

  @Override
  public void link(String traceparent) {
    SpanContext linked = MetaCarrier.spanContext(propagator, traceparent);
    if (linked != null) {
      span.addLink(linked);
    }
  }

  @Override
  public void end(JsonRpcError error, boolean toolError) {
    if (error != null) {
      String code = Integer.toString(error.code());
      span.setAttribute(ERROR_TYPE, code).setAttribute(STATUS_CODE, code);
      span.setStatus(StatusCode.ERROR, error.message());
    } else if (toolError) {
      span.setAttribute(ERROR_TYPE, "tool_error");
      span.setStatus(StatusCode.ERROR);
    }
    span.end();
  }

  @Override
  public void abandon() {
    span.setAttribute(ERROR_TYPE, "cancelled");
    span.end();
  }
}
