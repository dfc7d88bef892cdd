package io.mcpvertx.server.tracing;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.vertx.core.json.JsonObject;

/**
 * What a span is started from.
 *
 * @param method the MCP method ({@code tools/call})
 * @param target the low-cardinality target for the span name: the tool or prompt name; null when none
 * @param requestId the JSON-RPC id; null for a task execution
 * @param meta the request's {@code params._meta} (trace context per SEP-414); null when absent
 * @param sessionId the MCP session; null for a stateless request
 * @param protocolVersion the negotiated or declared revision; null when not known yet
 * @param resourceUri the resource of {@code resources/read} and its kin; null otherwise
 * @param taskId the task a task execution runs; null otherwise
 * @param linkedTraceparent the {@code traceparent} of a span to link (the task's creating request); null for none
 */
public record SpanStart(String method, String target, JsonRpcId requestId, JsonObject meta, String sessionId,
    String protocolVersion, String resourceUri, String taskId, String linkedTraceparent) {
}
