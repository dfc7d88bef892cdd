package io.mcpvertx.server.impl.tracing;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.tracing.McpSpan;
import org.slf4j.MDC;

/**
 * The MDC of the log lines written while one message is handled: instance, session, request, trace and span ids
 * and the principal's subject (never a token, never an argument). Set by {@link #enter} and cleared by {@link
 * #exit} around each message handled on an event loop, so nothing carries over to the next message the loop
 * handles. A value that is not known is left out (absent, not empty); {@link #exit} removes every key.
 */
public final class LogContext {

  public static final String INSTANCE_ID = "instance_id";
  public static final String SESSION_ID = "session_id";
  public static final String REQUEST_ID = "request_id";
  public static final String TRACE_ID = "trace_id";
  public static final String SPAN_ID = "span_id";
  public static final String PRINCIPAL = "principal";

  private LogContext() {
  }

  /** Sets the MDC for one message; each null is left out. */
  public static void enter(String instanceId, String sessionId, JsonRpcId requestId, Principal principal,
      McpSpan span) {
    if (instanceId != null) {
      MDC.put(INSTANCE_ID, instanceId);
    }
    if (sessionId != null) {
      MDC.put(SESSION_ID, sessionId);
    }
    if (requestId != null) {
      MDC.put(REQUEST_ID, requestId.toString());
    }
    if (principal != null) {
      MDC.put(PRINCIPAL, principal.subject());
    }
    if (span != null && span.traceId() != null) {
      MDC.put(TRACE_ID, span.traceId());
      MDC.put(SPAN_ID, span.spanId());
    }
  }

  /** Clears what {@link #enter} may have set. */
  public static void exit() {
    MDC.remove(INSTANCE_ID);
    MDC.remove(SESSION_ID);
    MDC.remove(REQUEST_ID);
    MDC.remove(PRINCIPAL);
    MDC.remove(TRACE_ID);
    MDC.remove(SPAN_ID);
  }
}
