package io.mcpvertx.spi.tasks;

import io.vertx.core.json.JsonObject;
import java.util.Objects;

/**
 * What {@link TaskStore#create} is asked to store.
 *
 * @param taskId the id, made by the store's {@link TaskStore#newTaskId} for {@code owner} so it is unguessable
 * @param owner who may see the task: a principal key, or a session key when the caller is anonymous
 * @param ttlMs lifetime from creation; null for unlimited
 * @param pollIntervalMs the polling interval suggested to clients; null for none
 * @param metadata what the engine needs to remember about the request the task augments (method, wire, tool);
 *     never shown to clients
 * @param maxActivePerOwner how many non-terminal tasks the owner may have, this one included; 0 for no limit
 */
public record NewTask(String taskId, String owner, Long ttlMs, Long pollIntervalMs, JsonObject metadata,
    int maxActivePerOwner) {

  public NewTask {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(owner, "owner");
    metadata = metadata == null ? new JsonObject() : metadata;
    if (ttlMs != null && ttlMs <= 0) {
      throw new IllegalArgumentException("ttlMs must be positive or null");
    }
    if (pollIntervalMs != null && pollIntervalMs <= 0) {
      throw new IllegalArgumentException("pollIntervalMs must be positive or null");
    }
    if (maxActivePerOwner < 0) {
      throw new IllegalArgumentException("maxActivePerOwner must not be negative");
    }
  }
}
