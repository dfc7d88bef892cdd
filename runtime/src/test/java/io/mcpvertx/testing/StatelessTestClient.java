package io.mcpvertx.testing;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.StatelessServer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A fluent client of the 2026-07-28 stateless wire for tests: {@code client.request("tools/call", params)
 * .capabilities(...).send()} yields the {@link Exchange} (response, notifications, and over HTTP the status and
 * headers). Requests carry {@code _meta}, and over HTTP the routing headers an HTTP client derives from the body.
 * The {@link StatelessTransport} decides where they go: the engine of a server in this JVM, or Streamable HTTP.
 * Everything that comes back is checked against the 2026-07-28 schema, and what the tasks extension defines (task
 * results, {@code notifications/tasks}) against the extension's schema; tests assert {@link #violations()} is
 * empty.
 *
 * <p>Requests are made on one event-loop context, as a transport serves them.
 */
public final class StatelessTestClient {

  public static final String VERSION = "2026-07-28";
  public static final String META_VERSION = StatelessServer.META_PROTOCOL_VERSION;
  public static final String META_CAPABILITIES = StatelessServer.META_CLIENT_CAPABILITIES;

  /** Everything a client can answer: sampling, elicitation (form) and roots. */
  public static final JsonObject ALL_CAPABILITIES = new JsonObject()
      .put("sampling", new JsonObject())
      .put("elicitation", new JsonObject())
      .put("roots", new JsonObject());

  public static final String TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

  /** {@link #ALL_CAPABILITIES} and the tasks extension. */
  public static final JsonObject WITH_TASKS = ALL_CAPABILITIES.copy()
      .put("extensions", new JsonObject().put(TASKS_EXTENSION, new JsonObject()));

  private final Vertx vertx;
  private final StatelessTransport transport;
  private final Context context;
  private final List<String> violations = new CopyOnWriteArrayList<>();
  private long nextId = 1;

  private StatelessTestClient(Vertx vertx, StatelessTransport transport) {
    this.vertx = vertx;
    this.transport = transport;
    this.context = vertx.getOrCreateContext();
  }

  /** A client of the stateless engine of {@code server}, in this JVM. */
  public static StatelessTestClient engine(Vertx vertx, McpServer server) {
    return over(vertx, StatelessTransport.engine(server));
  }

  /** A client whose requests go through {@code transport}. */
  public static StatelessTestClient over(Vertx vertx, StatelessTransport transport) {
    return new StatelessTestClient(vertx, transport);
  }

  /** A request's {@code _meta}: this revision, a client name, and these capabilities. */
  public static JsonObject meta(JsonObject capabilities) {
    return new JsonObject()
        .put(META_VERSION, VERSION)
        .put(StatelessServer.META_CLIENT_INFO, new JsonObject().put("name", "stateless-test").put("version", "1.0.0"))
        .put(META_CAPABILITIES, capabilities.copy());
  }

  /** A request of {@code method} with {@code params} (copied; {@code _meta} added unless present). */
  public Request request(String method, JsonObject params) {
    return new Request(method, params == null ? new JsonObject() : params.copy());
  }

  public Request request(String method) {
    return request(method, null);
  }

  /** Schema violations in everything this client received so far. */
  public List<String> violations() {
    return violations;
  }

  public void assertNoViolations() {
    assertTrue(violations.isEmpty(), () -> "schema violations: " + violations);
  }

  /**
   * What came back for one request: the response, the HTTP status it travelled with (0 from a transport without
   * one, such as the engine), the notifications before it, and the response's HTTP headers (none without HTTP).
   */
  public record Exchange(JsonRpcId id, int status, JsonObject response, List<JsonObject> notifications,
      MultiMap headers) {

    public boolean isError() {
      return response.containsKey("error");
    }

    public JsonObject result() {
      assertTrue(response.getValue("result") instanceof JsonObject, () -> "expected a result, got "
          + response.encode());
      return response.getJsonObject("result");
    }

    public JsonObject error() {
      assertTrue(response.getValue("error") instanceof JsonObject, () -> "expected an error, got "
          + response.encode());
      return response.getJsonObject("error");
    }

    /** Asserts an error with this code, echoing the request id; returns the error. */
    public JsonObject assertError(int code) {
      JsonObject error = error();
      assertEquals(code, error.getInteger("code"), () -> "unexpected error " + error.encode());
      assertEquals(id.wireValue(), response.getValue("id") instanceof Number n ? (Object) n.longValue()
          : response.getValue("id"), "the error echoes the request id");
      return error;
    }

    /** Asserts an error with this code and HTTP status (over HTTP); returns the error. */
    public JsonObject assertError(int code, int httpStatus) {
      JsonObject error = error();
      assertEquals(code, error.getInteger("code"), () -> "unexpected error " + error.encode());
      assertEquals(httpStatus, status, () -> "unexpected HTTP status for " + error.encode());
      assertEquals(id.wireValue(), response.getValue("id") instanceof Number n ? (Object) n.longValue()
          : response.getValue("id"), "the error echoes the request id");
      return error;
    }

    /** Asserts a complete result (resultType "complete"); returns it. */
    public JsonObject complete() {
      JsonObject result = result();
      assertEquals("complete", result.getString("resultType"), result::encode);
      assertOk();
      return result;
    }

    /** Over HTTP, a result travels with a 200. */
    private void assertOk() {
      if (status != 0) {
        assertEquals(200, status, () -> "unexpected HTTP status for " + response.encode());
      }
    }

    /** Asserts an input_required result; returns it. */
    public JsonObject inputRequired() {
      JsonObject result = result();
      assertEquals("input_required", result.getString("resultType"), result::encode);
      return result;
    }

    /** Asserts a task was created (the tasks extension's CreateTaskResult); returns it. */
    public JsonObject task() {
      JsonObject result = result();
      assertEquals("task", result.getString("resultType"), result::encode);
      assertOk();
      return result;
    }
  }

  /** Completes after {@code n} turns of this client's event loop (to shift one side of a race a little). */
  public Future<Void> turns(int n) {
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
  public Future<Exchange> getTask(String taskId, Principal principal) {
    return request("tasks/get", new JsonObject().put("taskId", taskId)).capabilities(WITH_TASKS.copy())
        .principal(principal).send();
  }

  /**
   * Polls {@code tasks/get} until the task satisfies {@code until}, yielding that result; fails on an error
   * response. Bounded by the test's own timeout, not by a deadline here.
   */
  public Future<JsonObject> awaitTask(String taskId, Principal principal, Predicate<JsonObject> until) {
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
  public Future<JsonObject> awaitStatus(String taskId, Principal principal, String status) {
    return awaitTask(taskId, principal, task -> status.equals(task.getString("status")));
  }

  /** One request to build and send. */
  public final class Request {

    private final String method;
    private final JsonObject params;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private final Set<String> removed = new HashSet<>();
    private Principal principal;
    private JsonRpcId id;

    private Request(String method, JsonObject params) {
      this.method = method;
      this.params = params;
      if (!params.containsKey("_meta")) {
        params.put("_meta", StatelessTestClient.meta(ALL_CAPABILITIES));
      }
    }

    /** Replaces {@code _meta} (null removes it). */
    public Request meta(JsonObject meta) {
      if (meta == null) {
        params.remove("_meta");
      } else {
        params.put("_meta", meta);
      }
      return this;
    }

    /** The client capabilities declared on this request. */
    public Request capabilities(JsonObject capabilities) {
      params.getJsonObject("_meta").put(META_CAPABILITIES, capabilities);
      return this;
    }

    public Request principal(Principal principal) {
      this.principal = principal;
      return this;
    }

    public Request id(JsonRpcId id) {
      this.id = id;
      return this;
    }

    /**
     * Sends a header as given, replacing the routing header of the same name a client derives from the body
     * (names are case-insensitive): for tests of what a transport does with headers that disagree with the body.
     */
    public Request header(String name, String value) {
      headers.put(name.toLowerCase(Locale.ROOT), value);
      removed.remove(name.toLowerCase(Locale.ROOT));
      return this;
    }

    /** Leaves out a header the client would derive from the body. */
    public Request withoutHeader(String name) {
      headers.remove(name.toLowerCase(Locale.ROOT));
      removed.add(name.toLowerCase(Locale.ROOT));
      return this;
    }

    public Future<Exchange> send() {
      Promise<Exchange> promise = Promise.promise();
      context.runOnContext(v -> {
        JsonRpcRequest request = build();
        List<JsonObject> notifications = new ArrayList<>();
        transport.exchange(call(request), message -> notifications.add(received(message, null)))
            .onComplete(ar -> {
              if (ar.failed()) {
                promise.fail(ar.cause());
                return;
              }
              JsonObject response = received(ar.result().response(), method);
              promise.complete(new Exchange(request.id(), ar.result().status(), response,
                  List.copyOf(notifications), ar.result().headers()));
            });
      });
      return promise.future();
    }

    /** Opens the request as {@code subscriptions/listen}; frames arrive on the returned stream. */
    public Future<Listening> listen() {
      Promise<Listening> promise = Promise.promise();
      context.runOnContext(v -> {
        Listening listening = new Listening();
        transport.listen(call(build()), message -> listening.add(received(message, null)))
            .onComplete(ar -> {
              if (ar.failed()) {
                promise.fail(ar.cause());
                return;
              }
              listening.subscription = ar.result();
              promise.complete(listening);
            });
      });
      return promise.future();
    }

    private StatelessTransport.Call call(JsonRpcRequest request) {
      return new StatelessTransport.Call(request, headers(), principal, context, violations::add);
    }

    private JsonRpcRequest build() {
      if (id == null) {
        id = JsonRpcId.of(nextId++);
      }
      return new JsonRpcRequest(id, method, params);
    }

    /** The routing headers an HTTP client derives from the request, with the test's own changes. */
    private Map<String, String> headers() {
      Map<String, String> all = new LinkedHashMap<>();
      Object version = params.getValue("_meta") instanceof JsonObject m ? m.getValue(META_VERSION) : null;
      all.put("mcp-protocol-version", version instanceof String s ? s : VERSION);
      all.put("mcp-method", method);
      Object name = switch (method) {
        case "tools/call", "prompts/get" -> params.getValue("name");
        case "resources/read" -> params.getValue("uri");
        case "tasks/get", "tasks/update", "tasks/cancel" -> params.getValue("taskId");
        default -> null;
      };
      if (name instanceof String s) {
        all.put("mcp-name", s);
      }
      removed.forEach(all::remove);
      all.putAll(headers);
      return all;
    }
  }

  /** An open {@code subscriptions/listen}: the frames received so far, in order. */
  public final class Listening {

    private final List<JsonObject> frames = new ArrayList<>();
    private final List<Promise<JsonObject>> waiters = new ArrayList<>();
    private final List<Integer> waitingFor = new ArrayList<>();
    private final List<Promise<JsonObject>> matchers = new ArrayList<>();
    private final List<Predicate<JsonObject>> matching = new ArrayList<>();
    private final List<Integer> matchingFrom = new ArrayList<>();
    private final List<JsonObject> untaken = new ArrayList<>();
    private final List<Map.Entry<String, Promise<JsonObject>>> takers = new ArrayList<>();
    private StatelessTransport.Stream subscription;

    private void add(JsonObject frame) {
      frames.add(frame);
      take(frame);
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
    public Future<JsonObject> frame(Predicate<JsonObject> wanted) {
      return frame(0, wanted);
    }

    /** The first frame at index {@code from} or later (received so far or later) that {@code wanted} accepts. */
    public Future<JsonObject> frame(int from, Predicate<JsonObject> wanted) {
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
    public Future<JsonObject> frame(int index) {
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

    /** The next frame with {@code method} that no earlier call of this method took (received so far or later). */
    public Future<JsonObject> next(String method) {
      Promise<JsonObject> promise = Promise.promise();
      context.runOnContext(v -> {
        for (Iterator<JsonObject> it = untaken.iterator(); it.hasNext(); ) {
          JsonObject frame = it.next();
          if (method.equals(frame.getString("method"))) {
            it.remove();
            promise.complete(frame);
            return;
          }
        }
        takers.add(Map.entry(method, promise));
      });
      return promise.future();
    }

    /** How many frames with {@code method} came so far. */
    public Future<Integer> count(String method) {
      Promise<Integer> promise = Promise.promise();
      context.runOnContext(v -> promise.complete((int) frames.stream()
          .filter(f -> method.equals(f.getString("method"))).count()));
      return promise.future();
    }

    private void take(JsonObject frame) {
      for (Iterator<Map.Entry<String, Promise<JsonObject>>> it = takers.iterator(); it.hasNext(); ) {
        Map.Entry<String, Promise<JsonObject>> taker = it.next();
        if (taker.getKey().equals(frame.getString("method"))) {
          it.remove();
          taker.getValue().complete(frame);
          return;
        }
      }
      untaken.add(frame);
    }

    /** A copy of the frames received so far. */
    public Future<List<JsonObject>> frames() {
      Promise<List<JsonObject>> promise = Promise.promise();
      context.runOnContext(v -> promise.complete(List.copyOf(frames)));
      return promise.future();
    }

    /** Closes the stream: at once on the client's context, as soon as the context runs it from anywhere else. */
    public void close() {
      if (Vertx.currentContext() == context) {
        subscription.close();
      } else {
        context.runOnContext(v -> subscription.close());
      }
    }
  }

  /** Checks what the server sent against the schema. */
  private JsonObject received(JsonObject message, String answeredMethod) {
    for (String problem : StatelessChecker.check(message, answeredMethod)) {
      violations.add(problem);
    }
    return message;
  }
}
