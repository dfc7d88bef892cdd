package io.mcpvertx.server.stateless;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.StatelessServer;
import io.mcpvertx.testing.SpecSchemas;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Drives a {@link StatelessServer} directly, as a transport would: {@link StatelessServer#validate}, then
 * {@link StatelessServer#serve} or {@link StatelessServer#listen} with a sink that
 * collects what the server emits. Everything the server emits goes through the server's codec and is checked
 * against the 2026-07-28 schema, and what the tasks extension defines (task results, {@code notifications/tasks})
 * against the extension's schema; a message sent on a request's stream after its response is a violation too.
 * Tests assert {@link #violations()} is empty.
 *
 * <p>Requests are made on one event-loop context, as a transport serves them. What a transport adds (HTTP's
 * headers and statuses) is tested with the transport.
 */
final class StatelessClient {

  static final String VERSION = "2026-07-28";
  static final String META_VERSION = StatelessServer.META_PROTOCOL_VERSION;
  static final String META_CAPABILITIES = StatelessServer.META_CLIENT_CAPABILITIES;

  /** Everything a client can answer: sampling, elicitation (form) and roots. */
  static final JsonObject ALL_CAPABILITIES = new JsonObject()
      .put("sampling", new JsonObject())
      .put("elicitation", new JsonObject())
      .put("roots", new JsonObject());

  static final String TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

  /** {@link #ALL_CAPABILITIES} and the tasks extension. */
  static final JsonObject WITH_TASKS = ALL_CAPABILITIES.copy()
      .put("extensions", new JsonObject().put(TASKS_EXTENSION, new JsonObject()));

  /** Results the tasks extension defines, by the method they answer (tools/call only when it made a task). */
  private static final Map<String, String> TASK_RESULT_TYPES = Map.of(
      "tasks/get", "GetTaskResult",
      "tasks/update", "UpdateTaskResult",
      "tasks/cancel", "CancelTaskResult");

  private static final Map<String, String> RESULT_TYPES = Map.ofEntries(
      Map.entry("server/discover", "DiscoverResult"),
      Map.entry("tools/list", "ListToolsResult"),
      Map.entry("tools/call", "CallToolResult"),
      Map.entry("resources/list", "ListResourcesResult"),
      Map.entry("resources/templates/list", "ListResourceTemplatesResult"),
      Map.entry("resources/read", "ReadResourceResult"),
      Map.entry("prompts/list", "ListPromptsResult"),
      Map.entry("prompts/get", "GetPromptResult"),
      Map.entry("completion/complete", "CompleteResult"));

  private static final Map<Integer, String> ERROR_TYPES = Map.of(
      -32022, "UnsupportedProtocolVersionError",
      -32020, "HeaderMismatchError",
      -32021, "MissingRequiredClientCapabilityError");

  private static final Map<Integer, String> ERROR_OBJECT_TYPES = Map.of(
      -32601, "MethodNotFoundError",
      -32602, "InvalidParamsError");

  private static final Map<String, String> NOTIFICATION_TYPES = Map.of(
      "notifications/progress", "ProgressNotification",
      "notifications/message", "LoggingMessageNotification",
      "notifications/tools/list_changed", "ToolListChangedNotification",
      "notifications/prompts/list_changed", "PromptListChangedNotification",
      "notifications/resources/list_changed", "ResourceListChangedNotification",
      "notifications/resources/updated", "ResourceUpdatedNotification",
      "notifications/subscriptions/acknowledged", "SubscriptionsAcknowledgedNotification",
      "notifications/tasks", "TaskStatusNotification");

  private final Vertx vertx;
  private final McpServer server;
  private final StatelessServer stateless;
  private final Context context;
  private final List<String> violations = new CopyOnWriteArrayList<>();
  private long nextId = 1;

  StatelessClient(Vertx vertx, McpServer server) {
    this.vertx = vertx;
    this.server = server;
    this.stateless = server.stateless();
    this.context = vertx.getOrCreateContext();
  }

  /** A request's {@code _meta}: this revision, a client name, and these capabilities. */
  static JsonObject meta(JsonObject capabilities) {
    return new JsonObject()
        .put(META_VERSION, VERSION)
        .put(StatelessServer.META_CLIENT_INFO, new JsonObject().put("name", "stateless-test").put("version", "1.0.0"))
        .put(META_CAPABILITIES, capabilities.copy());
  }

  /** A request of {@code method} with {@code params} (copied; {@code _meta} added unless present). */
  Request request(String method, JsonObject params) {
    return new Request(method, params == null ? new JsonObject() : params.copy());
  }

  Request request(String method) {
    return request(method, null);
  }

  /** Schema violations in everything this client received so far. */
  List<String> violations() {
    return violations;
  }

  void assertNoViolations() {
    assertTrue(violations.isEmpty(), () -> "schema violations: " + violations);
  }

  /** What came back for one request: the response, and notifications. */
  record Exchange(JsonRpcId id, JsonObject response, List<JsonObject> notifications) {

    boolean isError() {
      return response.containsKey("error");
    }

    JsonObject result() {
      assertTrue(response.getValue("result") instanceof JsonObject, () -> "expected a result, got "
          + response.encode());
      return response.getJsonObject("result");
    }

    JsonObject error() {
      assertTrue(response.getValue("error") instanceof JsonObject, () -> "expected an error, got "
          + response.encode());
      return response.getJsonObject("error");
    }

    /** Asserts an error with this code; returns the error. */
    JsonObject assertError(int code) {
      JsonObject error = error();
      assertEquals(code, error.getInteger("code"), () -> "unexpected error " + error.encode());
      assertEquals(id.wireValue(), response.getValue("id") instanceof Number n ? (Object) n.longValue()
          : response.getValue("id"), "the error echoes the request id");
      return error;
    }

    /** Asserts a complete result (resultType "complete"); returns it. */
    JsonObject complete() {
      JsonObject result = result();
      assertEquals("complete", result.getString("resultType"), result::encode);
      return result;
    }

    /** Asserts an input_required result; returns it. */
    JsonObject inputRequired() {
      JsonObject result = result();
      assertEquals("input_required", result.getString("resultType"), result::encode);
      return result;
    }

    /** Asserts a task was created (the tasks extension's CreateTaskResult); returns it. */
    JsonObject task() {
      JsonObject result = result();
      assertEquals("task", result.getString("resultType"), result::encode);
      return result;
    }
  }

  /** Completes after {@code n} turns of this client's event loop (to shift one side of a race a little). */
  Future<Void> turns(int n) {
    Promise<Void> done = Promise.promise();
    context.runOnContext(v -> {
      if (n <= 0) {
        done.complete();
      } else {
        turns(n - 1).onComplete(done);
      }
    });
    return done.future();
  }

  /** {@code tasks/get} for {@code taskId}, declaring the tasks extension, as {@code principal} (null: none). */
  Future<Exchange> getTask(String taskId, Principal principal) {
    return request("tasks/get", new JsonObject().put("taskId", taskId)).capabilities(WITH_TASKS.copy())
        .principal(principal).send();
  }

  /**
   * Polls {@code tasks/get} until the task satisfies {@code until}, yielding that result; fails on an error
   * response. Bounded by the test's own timeout, not by a deadline here.
   */
  Future<JsonObject> awaitTask(String taskId, Principal principal, Predicate<JsonObject> until) {
    return getTask(taskId, principal).compose(x -> {
      if (x.isError()) {
        return Future.failedFuture(new AssertionError("tasks/get failed: " + x.response().encode()));
      }
      if (until.test(x.result())) {
        return Future.succeededFuture(x.result());
      }
      Promise<JsonObject> next = Promise.promise();
      vertx.setTimer(5, t -> awaitTask(taskId, principal, until).onComplete(next));
      return next.future();
    });
  }

  /** Polls until the task has {@code status}. */
  Future<JsonObject> awaitStatus(String taskId, Principal principal, String status) {
    return awaitTask(taskId, principal, task -> status.equals(task.getString("status")));
  }

  /** One request to build and send. */
  final class Request {

    private final String method;
    private final JsonObject params;
    private Principal principal;
    private JsonRpcId id;

    private Request(String method, JsonObject params) {
      this.method = method;
      this.params = params;
      if (!params.containsKey("_meta")) {
        params.put("_meta", StatelessClient.meta(ALL_CAPABILITIES));
      }
    }

    /** Replaces {@code _meta} (null removes it). */
    Request meta(JsonObject meta) {
      if (meta == null) {
        params.remove("_meta");
      } else {
        params.put("_meta", meta);
      }
      return this;
    }

    /** The client capabilities declared on this request. */
    Request capabilities(JsonObject capabilities) {
      params.getJsonObject("_meta").put(META_CAPABILITIES, capabilities);
      return this;
    }

    Request principal(Principal principal) {
      this.principal = principal;
      return this;
    }

    Request id(JsonRpcId id) {
      this.id = id;
      return this;
    }

    Future<Exchange> send() {
      Promise<Exchange> promise = Promise.promise();
      context.runOnContext(v -> {
        JsonRpcRequest request = build();
        List<JsonObject> notifications = new ArrayList<>();
        JsonRpcError refused = stateless.validate(request);
        if (refused != null) {
          JsonObject response = received(new JsonRpcErrorResponse(request.id(), refused), method);
          promise.complete(new Exchange(request.id(), response, notifications));
          return;
        }
        boolean[] answered = {false};
        StatelessServer.Call call = stateless.serve(request, principal, message -> {
          if (Vertx.currentContext() != context) {
            violations.add("the sink was used off the request's context: " + message);
          }
          JsonObject received = received(message, null);
          if (answered[0]) {
            // The response ended the request's stream: nothing can travel on it any more.
            violations.add("a message after the response to " + method + ": " + received.encode());
          }
          notifications.add(received);
        });
        call.response().onComplete(ar -> {
          answered[0] = true;
          if (ar.failed()) {
            promise.fail(ar.cause());
            return;
          }
          JsonObject response = received(ar.result(), method);
          promise.complete(new Exchange(request.id(), response, List.copyOf(notifications)));
        });
      });
      return promise.future();
    }

    /** Opens the request as {@code subscriptions/listen}; frames arrive on the returned stream. */
    Future<Listening> listen() {
      Promise<Listening> promise = Promise.promise();
      context.runOnContext(v -> {
        JsonRpcRequest request = build();
        JsonRpcError refused = stateless.validate(request);
        if (refused != null) {
          promise.fail(new AssertionError("listen rejected: " + refused.message()));
          return;
        }
        Listening listening = new Listening();
        listening.subscription = stateless.listen(request, principal, message -> {
          if (Vertx.currentContext() != context) {
            violations.add("the listen sink was used off the stream's context: " + message);
          }
          listening.add(received(message, null));
        });
        promise.complete(listening);
      });
      return promise.future();
    }

    private JsonRpcRequest build() {
      if (id == null) {
        id = JsonRpcId.of(nextId++);
      }
      return new JsonRpcRequest(id, method, params);
    }
  }

  /** An open {@code subscriptions/listen}: the frames received so far, in order. */
  final class Listening {

    private final List<JsonObject> frames = new ArrayList<>();
    private final List<Promise<JsonObject>> waiters = new ArrayList<>();
    private final List<Integer> waitingFor = new ArrayList<>();
    private final List<Promise<JsonObject>> matchers = new ArrayList<>();
    private final List<Predicate<JsonObject>> matching = new ArrayList<>();
    private final List<Integer> matchingFrom = new ArrayList<>();
    private StatelessServer.Subscription subscription;

    private void add(JsonObject frame) {
      frames.add(frame);
      for (int i = waiters.size() - 1; i >= 0; i--) {
        int index = waitingFor.get(i);
        if (index < frames.size()) {
          waitingFor.remove(i);
          waiters.remove(i).complete(frames.get(index));
        }
      }
      for (int i = matchers.size() - 1; i >= 0; i--) {
        if (frames.size() > matchingFrom.get(i) && matching.get(i).test(frame)) {
          matching.remove(i);
          matchingFrom.remove(i);
          matchers.remove(i).complete(frame);
        }
      }
    }

    /** The first frame (received so far or later) that {@code wanted} accepts. */
    Future<JsonObject> frame(Predicate<JsonObject> wanted) {
      return frame(0, wanted);
    }

    /** The first frame at index {@code from} or later (received so far or later) that {@code wanted} accepts. */
    Future<JsonObject> frame(int from, Predicate<JsonObject> wanted) {
      Promise<JsonObject> promise = Promise.promise();
      context.runOnContext(v -> {
        for (int i = from; i < frames.size(); i++) {
          if (wanted.test(frames.get(i))) {
            promise.complete(frames.get(i));
            return;
          }
        }
        matchers.add(promise);
        matching.add(wanted);
        matchingFrom.add(from);
      });
      return promise.future();
    }

    /** The frame at {@code index} (0 is the acknowledgement), once it has arrived. */
    Future<JsonObject> frame(int index) {
      Promise<JsonObject> promise = Promise.promise();
      context.runOnContext(v -> {
        if (index < frames.size()) {
          promise.complete(frames.get(index));
        } else {
          waiters.add(promise);
          waitingFor.add(index);
        }
      });
      return promise.future();
    }

    /** A copy of the frames received so far. */
    Future<List<JsonObject>> frames() {
      Promise<List<JsonObject>> promise = Promise.promise();
      context.runOnContext(v -> promise.complete(List.copyOf(frames)));
      return promise.future();
    }

    void close() {
      subscription.close();
    }
  }

  /** Encodes what the server emitted, as a transport would, and checks it against the schema. */
  private JsonObject received(JsonRpcMessage message, String answeredMethod) {
    JsonObject json = new JsonObject(server.codec().encode(message));
    check(json, answeredMethod);
    return json;
  }

  private void check(JsonObject message, String answeredMethod) {
    if (message.containsKey("method")) {
      String method = message.getString("method");
      String type = NOTIFICATION_TYPES.get(method);
      if (message.containsKey("id") || type == null) {
        violations.add("unexpected message " + message.encode());
        return;
      }
      if (method.equals("notifications/tasks")) {
        record(SpecSchemas.EXT_TASKS, type, message);
        return;
      }
      record(type, message);
      JsonObject params = message.getJsonObject("params");
      if (method.equals("notifications/subscriptions/acknowledged") && params != null
          && params.getValue("notifications") instanceof JsonObject honored && honored.containsKey("taskIds")) {
        record(SpecSchemas.EXT_TASKS, "TaskSubscriptionAcknowledgedNotifications", honored);
      }
    } else if (message.getValue("error") instanceof JsonObject error) {
      record("JSONRPCErrorResponse", message);
      String type = ERROR_TYPES.get(error.getInteger("code"));
      if (type != null) {
        record(type, message);
      }
      String objectType = ERROR_OBJECT_TYPES.get(error.getInteger("code"));
      if (objectType != null) {
        record(objectType, error);
      }
    } else {
      record("JSONRPCResultResponse", message);
      JsonObject result = message.getJsonObject("result");
      String resultType = result.getString("resultType");
      if ("task".equals(resultType)) {
        if (!"tools/call".equals(answeredMethod)) {
          violations.add("a task made for " + answeredMethod + ": " + result.encode());
        }
        record(SpecSchemas.EXT_TASKS, "CreateTaskResult", result);
        return;
      }
      String taskType = TASK_RESULT_TYPES.get(answeredMethod);
      if (taskType != null) {
        record(SpecSchemas.EXT_TASKS, taskType, result);
        return;
      }
      String type = "input_required".equals(resultType) ? "InputRequiredResult"
          : RESULT_TYPES.get(answeredMethod);
      if (type != null) {
        record(type, result);
      }
    }
  }

  private void record(String type, JsonObject instance) {
    record(VERSION, type, instance);
  }

  private void record(String schema, String type, JsonObject instance) {
    for (String problem : SpecSchemas.violations(schema, type, instance)) {
      violations.add(type + ": " + problem + " in " + instance.encode());
    }
  }
}
