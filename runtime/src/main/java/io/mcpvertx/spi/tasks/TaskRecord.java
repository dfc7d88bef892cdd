package io.mcpvertx.spi.tasks;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Objects;

/**
 * A task as the store holds it: an immutable snapshot. Each wire renders it in its own shape.
 *
 * @param createdAt epoch milliseconds
 * @param lastUpdatedAt epoch milliseconds of the last change
 * @param ttlMs lifetime from {@code createdAt}, null for unlimited; the store forgets the task after it
 * @param result the result of the augmented request, once {@link TaskStatus#COMPLETED} (for the 2025-11-25 wire
 *     also once {@link TaskStatus#FAILED} by a tool result with {@code isError}); otherwise null
 * @param error the JSON-RPC error object ({@code code}, {@code message}, {@code data}) once failed by one
 * @param inputRequests the outstanding requests to the client, by key, each {@code {method, params}}
 * @param inputResponses the responses received for keys that were outstanding, by key; kept until the task goes
 */
public record TaskRecord(String taskId, String owner, TaskStatus status, String statusMessage, long createdAt,
    long lastUpdatedAt, Long ttlMs, Long pollIntervalMs, JsonObject metadata, JsonObject result, JsonObject error,
    Map<String, JsonObject> inputRequests, Map<String, JsonObject> inputResponses) {

  public TaskRecord {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(status, "status");
    metadata = metadata == null ? new JsonObject() : metadata;
    inputRequests = inputRequests == null ? Map.of() : Map.copyOf(inputRequests);
    inputResponses = inputResponses == null ? Map.of() : Map.copyOf(inputResponses);
  }

  /** When the store forgets the task (epoch milliseconds), or {@link Long#MAX_VALUE} when never. */
  public long expiresAt() {
    return ttlMs == null ? Long.MAX_VALUE : createdAt + ttlMs;
  }
}
