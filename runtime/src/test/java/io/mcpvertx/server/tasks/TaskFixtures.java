package io.mcpvertx.server.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.SpecSchemas;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Servers, tools and assertions shared by the tests of the 2025-11-25 tasks wire. */
final class TaskFixtures {

  static final String V = "2025-11-25";
  static final String RELATED_TASK = "io.modelcontextprotocol/related-task";
  static final String IMMEDIATE_RESPONSE = "io.modelcontextprotocol/model-immediate-response";
  /** The capability 2025-11-25 defines for a server that runs tools/call as tasks. */
  static final JsonObject TASKS_CAPABILITY = new JsonObject().put("list", new JsonObject())
      .put("cancel", new JsonObject())
      .put("requests", new JsonObject().put("tools", new JsonObject().put("call", new JsonObject())));

  /** The transitions 2025-11-25 allows; terminal statuses have none. */
  private static final Map<String, Set<String>> NEXT = Map.of(
      "working", Set.of("input_required", "completed", "failed", "cancelled"),
      "input_required", Set.of("working", "completed", "failed", "cancelled"),
      "completed", Set.of(),
      "failed", Set.of(),
      "cancelled", Set.of());

  private TaskFixtures() {
  }

  // ---- servers ----

  /**
   * A server with the tools most tests need: {@code job} (optional task support, finishes when the test says),
   * {@code quick} (optional, answers at once), {@code required} (required, answers at once) and {@code direct}
   * (tasks forbidden).
   */
  static McpServer server(Vertx vertx, McpServerOptions options, Jobs jobs) {
    return jobs.register(McpServer.create(vertx, options))
        .tool(Tool.builder("quick").taskSupport(TaskSupport.OPTIONAL).build(),
            (args, ctx) -> Future.succeededFuture(ToolResult.text("quick done")))
        .tool(Tool.builder("required").taskSupport(TaskSupport.REQUIRED).build(),
            (args, ctx) -> Future.succeededFuture(ToolResult.text("required done")))
        .tool(Tool.builder("direct").build(), (args, ctx) -> Future.succeededFuture(ToolResult.text("direct done")));
  }

  static McpServer server(Vertx vertx, Jobs jobs) {
    return server(vertx, new McpServerOptions(), jobs);
  }

  /** One call of the {@code job} tool: its context, the result the test completes, and its cancellation. */
  record Job(RequestContext ctx, Context context, Promise<ToolResult> result, Promise<String> cancelled) {

    /** Finishes the call with {@code text}, on the handler's own context as a real handler would. */
    void complete(String text) {
      context.runOnContext(v -> result.tryComplete(ToolResult.text(text)));
    }

    void complete(ToolResult toolResult) {
      context.runOnContext(v -> result.tryComplete(toolResult));
    }

    void fail(Throwable failure) {
      context.runOnContext(v -> result.tryFail(failure));
    }
  }

  /** The {@code job} tool: every call waits until the test completes it. Thread-safe. */
  static final class Jobs {
    private final List<Promise<Job>> started = new ArrayList<>();
    private int calls;

    McpServer register(McpServer server) {
      return server.tool(Tool.builder("job").taskSupport(TaskSupport.OPTIONAL).build(), (args, ctx) -> {
        Promise<ToolResult> result = Promise.promise();
        Promise<String> cancelled = Promise.promise();
        ctx.onCancel(reason -> cancelled.tryComplete(String.valueOf(reason)));
        slot(next()).complete(new Job(ctx, Vertx.currentContext(), result, cancelled));
        return result.future();
      });
    }

    private synchronized int next() {
      return calls++;
    }

    private synchronized Promise<Job> slot(int index) {
      while (started.size() <= index) {
        started.add(Promise.promise());
      }
      return started.get(index);
    }

    /** The {@code index}-th call (from 0), once its handler has started. */
    Future<Job> job(int index) {
      return slot(index).future();
    }

    synchronized int calls() {
      return calls;
    }
  }

  // ---- clients ----

  /** A client on a fresh unauthenticated session, initialized and operating (a ping has gone round). */
  static Future<McpTestClient> open(Vertx vertx, McpServer server, String version, JsonObject capabilities) {
    return McpTestClient.inProcess(vertx, server).compose(client -> ready(client, version, capabilities));
  }

  static Future<McpTestClient> open(Vertx vertx, McpServer server) {
    return open(vertx, server, V, new JsonObject());
  }

  /** Like {@link #open(Vertx, McpServer)}, for a session of an authenticated principal. */
  static Future<McpTestClient> open(Vertx vertx, McpServer server, Principal principal) {
    return McpTestClient.inProcess(vertx, server, principal).compose(client -> ready(client, V, new JsonObject()));
  }

  private static Future<McpTestClient> ready(McpTestClient client, String version, JsonObject capabilities) {
    return client.initialize(version, capabilities).compose(init -> client.call("ping", null)).map(pong -> client);
  }

  // ---- requests ----

  /** tools/call params asking for a task; {@code ttl} null asks for none in particular. */
  static JsonObject taskCall(String tool, Long ttl) {
    JsonObject task = ttl == null ? new JsonObject() : new JsonObject().put("ttl", ttl);
    return new JsonObject().put("name", tool).put("task", task);
  }

  static JsonObject taskCall(String tool) {
    return taskCall(tool, 60_000L);
  }

  static JsonObject byId(String taskId) {
    return new JsonObject().put("taskId", taskId);
  }

  /** Calls {@code params} as a task and yields the created task (the {@code task} member of the result). */
  static Future<JsonObject> create(McpTestClient client, JsonObject params) {
    return client.call("tools/call", params).map(result -> {
      assertTrue(result.containsKey("task"), () -> "expected a CreateTaskResult, got " + result.encode());
      return result.getJsonObject("task");
    });
  }

  static Future<String> createId(McpTestClient client, String tool) {
    return create(client, taskCall(tool)).map(task -> task.getString("taskId"));
  }

  static Future<JsonObject> get(McpTestClient client, String taskId) {
    return client.call("tasks/get", byId(taskId));
  }

  /** Polls tasks/get until the task has {@code status}; the test's timeout bounds the wait. */
  static Future<JsonObject> awaitStatus(McpTestClient client, String taskId, String status) {
    return get(client, taskId).compose(task -> status.equals(task.getString("status"))
        ? Future.succeededFuture(task)
        : client.context().owner().timer(5).compose(t -> awaitStatus(client, taskId, status)));
  }

  // ---- assertions ----

  static JsonObject assertError(JsonObject response, int code) {
    assertTrue(response.containsKey("error"), () -> "expected an error response, got " + response.encode());
    JsonObject error = response.getJsonObject("error");
    assertEquals(code, error.getInteger("code"), () -> "unexpected error " + error.encode());
    return error;
  }

  static void assertNoViolations(McpTestClient client) {
    assertTrue(client.violations().isEmpty(), () -> "schema violations: " + client.violations());
  }

  /** The task id in a message's related-task {@code _meta}, or null when there is none. */
  static String relatedTaskId(JsonObject paramsOrResult) {
    JsonObject meta = paramsOrResult.getJsonObject("_meta");
    JsonObject related = meta == null ? null : meta.getJsonObject(RELATED_TASK);
    return related == null ? null : related.getString("taskId");
  }

  /** An RFC 3339 timestamp (ISO 8601 with an offset), as 2025-11-25 asks for createdAt and lastUpdatedAt. */
  static OffsetDateTime assertTimestamp(Object value) {
    String text = assertInstanceOf(String.class, value, "timestamps are strings");
    try {
      return OffsetDateTime.parse(text);
    } catch (DateTimeParseException e) {
      throw new AssertionError("not an ISO 8601 / RFC 3339 timestamp: " + text, e);
    }
  }

  /**
   * A 2025-11-25 {@code Task} as a server must render it: a string id, a known status, both timestamps, the
   * actual ttl, and no related-task {@code _meta} (the id is already there).
   */
  static JsonObject assertTask(JsonObject task) {
    assertInstanceOf(String.class, task.getValue("taskId"), () -> "taskId must be a string: " + task.encode());
    assertTrue(NEXT.containsKey(task.getString("status")), () -> "unknown status in " + task.encode());
    OffsetDateTime created = assertTimestamp(task.getValue("createdAt"));
    OffsetDateTime updated = assertTimestamp(task.getValue("lastUpdatedAt"));
    assertFalse(updated.isBefore(created), () -> "updated before created: " + task.encode());
    assertTrue(task.containsKey("ttl"), () -> "the actual ttl (or null) must be present: " + task.encode());
    assertNull(relatedTaskId(task), () -> "no related-task _meta expected: " + task.encode());
    return task;
  }

  /** The statuses seen in order form a path 2025-11-25 allows, starting from working. */
  static void assertValidPath(List<String> statuses) {
    String current = "working";
    for (String next : statuses) {
      if (next.equals(current) && !NEXT.get(current).isEmpty()) {
        continue; // the same status seen twice: no transition
      }
      String from = current;
      assertTrue(NEXT.get(from).contains(next), () -> "invalid transition " + from + " -> " + next + " in "
          + statuses);
      current = next;
    }
  }

  /** The statuses announced with notifications/tasks/status for one task, in order. */
  static List<String> announced(McpTestClient client, String taskId) {
    return client.notifications("notifications/tasks/status").stream().map(n -> n.getJsonObject("params"))
        .filter(p -> taskId.equals(p.getString("taskId"))).map(p -> p.getString("status")).toList();
  }

  /** The statuses announced for the task, once {@code last} is among them; the test's timeout bounds the wait. */
  static Future<List<String>> awaitAnnounced(McpTestClient client, String taskId, String last) {
    List<String> statuses = announced(client, taskId);
    if (statuses.contains(last)) {
      return Future.succeededFuture(statuses);
    }
    return client.context().owner().timer(5).compose(t -> awaitAnnounced(client, taskId, last));
  }

  /** The result of a tasks/result for a tools/call task is a CallToolResult of 2025-11-25. */
  static void assertCallToolResult(JsonObject result) {
    List<String> violations = SpecSchemas.violations(V, "CallToolResult", result);
    assertTrue(violations.isEmpty(), () -> "not a CallToolResult: " + violations + " in " + result.encode());
  }

  /** {@code result} without the related-task entry of its {@code _meta} (and without an emptied _meta). */
  static JsonObject withoutRelatedTask(JsonObject result) {
    JsonObject copy = result.copy();
    JsonObject meta = copy.getJsonObject("_meta");
    if (meta != null) {
      meta.remove(RELATED_TASK);
      if (meta.isEmpty()) {
        copy.remove("_meta");
      }
    }
    return copy;
  }
}
