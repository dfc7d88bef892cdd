package io.mcpvertx.tracing.impl;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.vertx.core.json.JsonObject;
import java.util.Map;

/**
 * Reads and writes trace context in a {@code params._meta} object: its reserved keys {@code traceparent}, {@code
 * tracestate} and {@code baggage} (SEP-414), as string members. A member of another type is ignored.
 */
enum MetaCarrier implements TextMapGetter<JsonObject>, TextMapSetter<JsonObject> {
  INSTANCE;

  @Override
  public Iterable<String> keys(JsonObject meta) {
    return meta.fieldNames();
  }

  @Override
  public String get(JsonObject meta, String key) {
    return meta != null && meta.getValue(key) instanceof String value ? value : null;
  }

  @Override
  public void set(JsonObject meta, String key, String value) {
    if (meta != null) {
      meta.put(key, value);
    }
  }

  /** The span context of a stored {@code traceparent}; null when absent or not valid. */
  static SpanContext spanContext(TextMapPropagator propagator, String traceparent) {
    if (traceparent == null) {
      return null;
    }
    JsonObject carrier = new JsonObject(Map.of("traceparent", traceparent));
    SpanContext context = Span.fromContext(propagator.extract(Context.root(), carrier, INSTANCE)).getSpanContext();
    return context.isValid() ? context : null;
  }
}
