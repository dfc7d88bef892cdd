package io.mcpvertx.storage.redis.impl;

import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Response;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads tasks and change announcements as the task scripts write them (the task's JSON fields are listed in
 * {@code task-common.lua}). Stateless.
 */
final class TaskCodec {

  private TaskCodec() {
  }

  /** The task in its JSON as the scripts write it; null for none. */
  static TaskRecord record(Response json) {
    return json == null ? null : record(json.toString());
  }

  static TaskRecord record(String json) {
    JsonObject fields = new JsonObject(json);
    TaskStatus status = TaskStatus.fromWireName(fields.getString("status"))
        .orElseThrow(() -> new IllegalStateException("unknown task status " + fields.getString("status")));
    return new TaskRecord(fields.getString("id"), fields.getString("owner"), status, fields.getString("msg"),
        Long.parseLong(fields.getString("created")), Long.parseLong(fields.getString("updated")),
        number(fields.getString("ttl")), number(fields.getString("poll")), json(fields.getString("meta")),
        json(fields.getString("result")), json(fields.getString("error")), entries(fields.getValue("q")),
        entries(fields.getValue("r")));
  }

  /** An object of key → JSON text; Lua's JSON writes an empty one as {} or []. */
  private static Map<String, JsonObject> entries(Object value) {
    Map<String, JsonObject> out = new HashMap<>();
    if (value instanceof JsonObject object) {
      object.forEach(entry -> out.put(entry.getKey(), new JsonObject((String) entry.getValue())));
    }
    return out;
  }

  /** An announcement as the scripts publish it, {@code KIND|status|taskId}; null if it is not one. */
  static TaskChange change(String message) {
    String[] parts = message.split("\\|", 3);
    if (parts.length != 3) {
      return null;
    }
    TaskStatus status = TaskStatus.fromWireName(parts[1]).orElse(null);
    try {
      TaskChange.Kind kind = TaskChange.Kind.valueOf(parts[0]);
      return status == null || kind == TaskChange.Kind.RESYNC ? null : new TaskChange(kind, parts[2], status);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static Long number(String value) {
    return value == null ? null : Long.valueOf(value);
  }

  private static JsonObject json(String value) {
    return value == null ? null : new JsonObject(value);
  }
}
