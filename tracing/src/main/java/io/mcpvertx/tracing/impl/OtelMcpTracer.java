package io.mcpvertx.tracing.impl;

import io.mcpvertx.server.tracing.McpSpan;
import io.mcpvertx.server.tracing.McpTracer;
import io.mcpvertx.server.tracing.SpanStart;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.vertx.core.json.JsonObject;

/**
 * {@link McpTracer} on OpenTelemetry. A request's parent is the context the client put in {@code params._meta}
 * when there is one, with the ambient span (the HTTP request's, or the event-bus message's) linked; otherwise the
 * ambient span. Span names and attributes follow the OpenTelemetry MCP semantic conventions (gen-ai/mcp).
 */
public final class OtelMcpTracer implements McpTracer {

  static final String SCOPE = "io.mcpvertx";

  static final AttributeKey<String> METHOD = AttributeKey.stringKey("mcp.method.name");
  static final AttributeKey<String> SESSION = AttributeKey.stringKey("mcp.session.id");
  static final AttributeKey<String> PROTOCOL = AttributeKey.stringKey("mcp.protocol.version");
  static final AttributeKey<String> RESOURCE_URI = AttributeKey.stringKey("mcp.resource.uri");
  static final AttributeKey<String> TOOL = AttributeKey.stringKey("gen_ai.tool.name");
  static final AttributeKey<String> PROMPT = AttributeKey.stringKey("gen_ai.prompt.name");
  static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
  static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("jsonrpc.request.id");
  static final AttributeKey<String> TASK_ID = AttributeKey.stringKey("mcp.task.id");

  private final Tracer tracer;
  private final TextMapPropagator propagator;

  public OtelMcpTracer(OpenTelemetry openTelemetry) {
    this.tracer = openTelemetry.getTracer(SCOPE);
    this.propagator = openTelemetry.getPropagators().getTextMapPropagator();
  }

  @Override
  public Runnable wrap(Runnable task) {
    return Context.current().wrap(task);
  }

  @Override
  public McpSpan start(SpanStart start) {
    Context ambient = Context.current();
    Context parent = ambient;
    SpanBuilder builder = tracer.spanBuilder(start.target() == null ? start.method()
        : start.method() + " " + start.target());
    JsonObject meta = start.meta();
    if (meta != null && meta.getValue("traceparent") instanceof String) {
      Context sent = propagator.extract(Context.root(), meta, MetaCarrier.INSTANCE);
      if (Span.fromContext(sent).getSpanContext().isValid()) {
        // SEP-414 and the conventions: the client's span is the parent; the transport's is recorded as a link.
        parent = sent;
        SpanContext transport = Span.fromContext(ambient).getSpanContext();
        if (transport.isValid()) {
          builder.addLink(transport);
        }
      }
    }
    SpanContext linked = MetaCarrier.spanContext(propagator, start.linkedTraceparent());
    if (linked != null) {
      builder.addLink(linked);
    }
    builder.setParent(parent).setSpanKind(start.requestId() == null ? SpanKind.INTERNAL : SpanKind.SERVER)
        .setAttribute(METHOD, start.method());
    if (start.requestId() != null) {
      builder.setAttribute(REQUEST_ID, start.requestId().toString());
    }
    if (start.sessionId() != null) {
      builder.setAttribute(SESSION, start.sessionId());
    }
    if (start.protocolVersion() != null) {
      builder.setAttribute(PROTOCOL, start.protocolVersion());
    }
    if (start.resourceUri() != null) {
      builder.setAttribute(RESOURCE_URI, start.resourceUri());
    }
    if (start.taskId() != null) {
      builder.setAttribute(TASK_ID, start.taskId());
    }
    if (start.target() != null) {
      if ("tools/call".equals(start.method())) {
        builder.setAttribute(TOOL, start.target()).setAttribute(OPERATION, "execute_tool");
      } else if ("prompts/get".equals(start.method())) {
        builder.setAttribute(PROMPT, start.target());
      }
    }
    Span span = builder.startSpan();
    return new OtelMcpSpan(span, parent.with(span), propagator);
  }
}
