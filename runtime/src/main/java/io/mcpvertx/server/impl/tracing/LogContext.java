package io.mcpvertx.server.impl.tracing;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.tracing.McpSpan;
import org.slf4j.MDC;

/**
 * The MDC of the log lines written while one message is handled: instance, session, request, trace and span ids
 * and the principal's subject (never a token, never an argument). Set by {@link #enter} and cleared by {@link
 * #exit} around each message handled on an event loop, so nothing carries over to the next message the loop
 * handles. A value that is not known is left out (absent, not empty).
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

  private static final int INSTANCE = 1;
  private static final int SESSION = 2;
  private static final int REQUEST = 4;
  private static final int SUBJECT = 8;
  private static final int TRACE = 16;

  /**
   * Sets the MDC for one message; each null is left out. Returns which keys it set, for {@link #exit(int)}: the
   * MDC is set and cleared around every message, so only what was set is removed.
   */
  public static int enter(String instanceId, String sessionId, JsonRpcId requestId, Principal principal,
      McpSpan span) {
    int set = 0;
    if (instanceId != null) {
      MDC.put(INSTANCE_ID, instanceId);
      set |= INSTANCE;
    }
    if (sessionId != null) {
      MDC.put(SESSION_ID, sessionId);
      set |= SESSION;
    }
    if (requestId != null) {
      MDC.put(REQUEST_ID, requestId.toString());
      set |= REQUEST;
    }
    if (principal != null) {
      MDC.put(PRINCIPAL, principal.subject());
      set |= SUBJECT;
    }
    if (span != null && span.traceId() != null) {
      MDC.put(TRACE_ID, span.traceId());
      MDC.put(SPAN_ID, span.spanId());
      set |= TRACE;
    }
    return set;
  }

  /** Clears what {@link #enter} set; {@code set} is what it returned. */
  public static void exit(int set) {
    if ((set & INSTANCE) != 0) {
      MDC.remove(INSTANCE_ID);
    }
    if ((set & SESSION) != 0) {
      MDC.remove(SESSION_ID);
    }
    if ((set & REQUEST) != 0) {
      MDC.remove(REQUEST_ID);
    }
    if ((set & SUBJECT) != 0) {
      MDC.remove(PRINCIPAL);
    }
    if ((set & TRACE) != 0) {
      MDC.remove(TRACE_ID);
      MDC.remove(SPAN_ID);
    }
  }
}
