package io.mcpvertx.storage.redis.impl;

import io.mcpvertx.spi.tasks.TaskChange;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Response;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads tasks and change announcements as the task scripts write them (the hash fields are listed in
 * {@code task-common.lua}). Stateless.
 */
final class TaskCodec {

  private static final String REQUEST = "q:";
  private static final String RESPONSE = "r:";

  private TaskCodec() {
  }

  /** The task in a hash's fields (a map, or a flat array of names and values from {@code offset} on). */
  static TaskRecord record(Response hash, int offset) {
    Map<String, String> fields = new HashMap<>();
    if (hash.isMap()) {
      for (String name : hash.getKeys()) {
        fields.put(name, hash.get(name).toString());
      }
    } else {
      for (int i = offset; i + 1 < hash.size(); i += 2) {
        fields.put(hash.get(i).toString(), hash.get(i + 1).toString());
      }
    }
    return fields.isEmpty() ? null : record(fields);
  }

  private static TaskRecord record(Map<String, String> fields) {
    Map<String, JsonObject> requests = new HashMap<>();
    Map<String, JsonObject> responses = new HashMap<>();
    fields.forEach((name, value) -> {
      if (name.startsWith(REQUEST)) {
        requests.put(name.substring(REQUEST.length()), new JsonObject(value));
      } else if (name.startsWith(RESPONSE)) {
        responses.put(name.substring(RESPONSE.length()), new JsonObject(value));
      }
    });
    TaskStatus status = TaskStatus.fromWireName(fields.get("status"))
        .orElseThrow(() -> new IllegalStateException("unknown task status " + fields.get("status")));
    return new TaskRecord(fields.get("id"), fields.get("owner"), status, fields.get("msg"),
        Long.parseLong(fields.get("created")), Long.parseLong(fields.get("updated")), number(fields.get("ttl")),
        number(fields.get("poll")), json(fields.get("meta")), json(fields.get("result")), json(fields.get("error")),
        requests, responses);
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
