package io.mcpvertx.verticles.http;

import static io.mcpvertx.verticles.http.HttpChecks.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolExecution;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.SpecSchemas;
import io.mcpvertx.testing.http.HttpReply;
import io.mcpvertx.testing.http.SseParser;
import io.mcpvertx.testing.http.SseStream;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.testing.http.StreamableHttpSession;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tasks belong to the principal that created them, over real HTTP with real tokens, on both task wires: another
 * session of the same issuer and subject (with a refreshed token) reaches the task; another subject gets the
 * answer of an unknown id, sees nothing in {@code tasks/list}, and no {@code notifications/tasks} for it.
 */
@ExtendWith(VertxExtension.class)
class HttpAuthTasksTest {

  private static final String V11 = "2025-11-25";
  private static final String MODERN = "2026-07-28";
  private static final String EXTENSION = "io.modelcontextprotocol/tasks";
  private static final String EXT_SCHEMA = "ext-tasks";
  private static final String ALL = "mcp:basic mcp:tools";
  private static final int INVALID_PARAMS = -32602;

  private static MockAuthorizationServer authorizationServer;

  /** One gate per {@code slow} call, named by its {@code gate} argument; the test opens it. */
  private final Map<String, Promise<Void>> gates = new ConcurrentHashMap<>();
  private final AtomicLong nextId = new AtomicLong(1);

  @BeforeAll
  static void startAuthorizationServer() {
    authorizationServer = new MockAuthorizationServer();
  }

  @AfterAll
  static void stopAuthorizationServer() {
    authorizationServer.close();
  }

  private static String token(String subject) {
    return authorizationServer.token(subject, HttpAuthTest.RESOURCE, ALL, 300);
  }

  private Future<HttpTestServer> start(Vertx vertx) {
    return start(vertx, new McpServerOptions());
  }

  /** An endpoint with auth serving {@code slow}, a task whenever the client can take one. */
  private Future<HttpTestServer> start(Vertx vertx, McpServerOptions serverOptions) {
    McpHttpServerOptions options = new McpHttpServerOptions()
        .setAuth(HttpAuthTest.jwtOptions(authorizationServer.issuer()));
    return HttpTestServer.start(vertx, serverOptions, options, 1).map(server -> {
      server.mcp.tool(Tool.builder("slow").description("Waits until the test opens its gate")
              .execution(ToolExecution.task(TaskSupport.OPTIONAL)).build(),
          (args, ctx) -> gate(args.getString("gate")).future()
              .map(v -> ToolResult.text("opened " + args.getString("gate"))));
      return server;
    });
  }

  private Promise<Void> gate(String name) {
    return gates.computeIfAbsent(name, k -> Promise.promise());
  }

  private static JsonObject slow(String gate) {
    return new JsonObject().put("name", "slow").put("arguments", new JsonObject().put("gate", gate));
  }

  private static void assertValid(String version, String type, JsonObject instance) {
    List<String> violations = SpecSchemas.violations(version, type, instance);
    assertTrue(violations.isEmpty(), () -> type + ": " + violations + " in " + instance.encode());
  }

  /** The JSON-RPC error a request got, after checking the status and the envelope. */
  private static JsonObject error(HttpReply reply, String version, int status) {
    assertEquals(status, reply.status(), reply::toString);
    List<JsonObject> messages = reply.messages();
    JsonObject response = messages.get(messages.size() - 1);
    HttpChecks.assertSchemaValid(version, response, null);
    assertTrue(response.containsKey("error"), reply::toString);
    return response.getJsonObject("error");
  }

  private static String text(JsonObject result) {
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }

  // ---- 2025-11-25: tasks on sessions ----

  /** Posts a request on the session and yields its error, asserting there is one. */
  private static Future<JsonObject> legacyError(StreamableHttpSession session, String method, String taskId) {
    return session.post(session.request(method, new JsonObject().put("taskId", taskId)))
        .map(reply -> error(reply, V11, 200));
  }

  /** What a session gets for {@code method} on {@code taskId} and on an id nobody ever had. */
  private static Future<List<JsonObject>> legacyRefusals(StreamableHttpSession session, String method, String taskId) {
    String unknown = "x".repeat(taskId.length());
    return legacyError(session, method, taskId).compose(owned -> legacyError(session, method, unknown)
        .map(never -> List.of(owned, never)));
  }

  /** Posts a request on the session and yields its result (a {@code CreateTaskResult} is no tools/call result). */
  private static Future<JsonObject> legacyResult(StreamableHttpSession session, String method, JsonObject params) {
    return session.post(session.request(method, params)).map(reply -> {
      assertEquals(200, reply.status(), reply::toString);
      List<JsonObject> messages = reply.messages();
      JsonObject response = messages.get(messages.size() - 1);
      HttpChecks.assertSchemaValid(V11, response, null);
      assertTrue(response.containsKey("result"), reply::toString);
      return response.getJsonObject("result");
    });
  }

  private static List<String> listed(JsonObject list) {
    assertValid(V11, "ListTasksResult", list);
    return list.getJsonArray("tasks").stream().map(t -> ((JsonObject) t).getString("taskId")).toList();
  }

  @Test
  void legacyTasksAreSharedByTheirPrincipalsSessionsAndHiddenFromOtherSubjects(Vertx vertx, VertxTestContext test) {
    String first = token("alice");
    String refreshed = token("alice");
    assertNotEquals(first, refreshed, "two distinct tokens of one subject");
    String[] task = new String[1];
    StreamableHttpSession[] sessions = new StreamableHttpSession[3];
    start(vertx).compose(server -> server.client().withBearer(first).initialize(V11)
            .compose(alice -> {
              assertTrue(alice.initializeResponse().getJsonObject("result").getJsonObject("capabilities")
                  .containsKey("tasks"), "the tasks capability is offered");
              return legacyResult(alice, "tools/call", slow("a").put("task", new JsonObject()));
            })
            .compose(created -> {
              assertValid(V11, "CreateTaskResult", created);
              assertEquals("working", created.getJsonObject("task").getString("status"));
              task[0] = created.getJsonObject("task").getString("taskId");
              return Future.all(server.client().withBearer(refreshed).initialize(V11),
                  server.client().withBearer(token("bob")).initialize(V11));
            }))
        .compose(both -> {
          sessions[1] = both.resultAt(0);
          sessions[2] = both.resultAt(1);
          return sessions[1].call("tasks/list", null);
        })
        .compose(aliceList -> {
          assertEquals(List.of(task[0]), listed(aliceList), "Alice's other session lists her task");
          return sessions[2].call("tasks/list", null);
        })
        .compose(bobList -> {
          assertEquals(List.of(), listed(bobList), "Bob lists none of Alice's tasks");
          return Future.all(legacyRefusals(sessions[2], "tasks/get", task[0]),
              legacyRefusals(sessions[2], "tasks/result", task[0]),
              legacyRefusals(sessions[2], "tasks/cancel", task[0]));
        })
        .compose(refusals -> {
          for (int i = 0; i < 3; i++) {
            List<JsonObject> pair = refusals.resultAt(i);
            assertEquals(INVALID_PARAMS, pair.get(0).getInteger("code"), pair.get(0)::encode);
            assertEquals(pair.get(1), pair.get(0), "Alice's task reads to Bob as an unknown id");
          }
          return sessions[1].call("tasks/get", new JsonObject().put("taskId", task[0]));
        })
        .compose(got -> {
          assertValid(V11, "GetTaskResult", got);
          assertEquals("working", got.getString("status"), "Bob's tasks/cancel left the task alone");
          Future<JsonObject> result = sessions[1].call("tasks/result", new JsonObject().put("taskId", task[0]));
          gate("a").complete();
          return result;
        })
        .compose(result -> {
          assertValid(V11, "CallToolResult", result);
          assertEquals("opened a", text(result));
          assertEquals(task[0], result.getJsonObject("_meta").getJsonObject("io.modelcontextprotocol/related-task")
              .getString("taskId"));
          return Future.all(legacyRefusals(sessions[2], "tasks/get", task[0]),
              legacyRefusals(sessions[2], "tasks/result", task[0]),
              legacyRefusals(sessions[2], "tasks/cancel", task[0]), sessions[2].call("tasks/list", null));
        })
        .onComplete(test.succeeding(after -> test.verify(() -> {
          for (int i = 0; i < 3; i++) {
            List<JsonObject> pair = after.resultAt(i);
            assertEquals(pair.get(1), pair.get(0), "a finished task of Alice's is still unknown to Bob");
          }
          assertEquals(List.of(), listed(after.resultAt(3)));
          test.completeNow();
        })));
  }

  // ---- 2026-07-28: the tasks extension on the stateless wire ----

  private static JsonObject meta() {
    return new JsonObject()
        .put("io.modelcontextprotocol/protocolVersion", MODERN)
        .put("io.modelcontextprotocol/clientInfo", new JsonObject().put("name", "modern").put("version", "1"))
        .put("io.modelcontextprotocol/clientCapabilities", new JsonObject()
            .put("extensions", new JsonObject().put(EXTENSION, new JsonObject())));
  }

  /** The routing headers of a stateless request; {@code name} is the {@code Mcp-Name}, if any. */
  private static MultiMap headers(String method, String name) {
    MultiMap headers = StreamableHttp.postHeaders().add("MCP-Protocol-Version", MODERN).add("Mcp-Method", method);
    return name == null ? headers : headers.add("Mcp-Name", name);
  }

  private JsonObject body(String method, JsonObject params) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", nextId.getAndIncrement()).put("method", method)
        .put("params", params.copy().put("_meta", meta()));
  }

  private Future<HttpReply> modern(StreamableHttp client, String method, JsonObject params, String name) {
    return client.post(headers(method, name), body(method, params));
  }

  /** A stateless {@code tasks/*} request about {@code taskId}. */
  private Future<HttpReply> taskRequest(StreamableHttp client, String method, String taskId) {
    JsonObject params = new JsonObject().put("taskId", taskId);
    if (method.equals("tasks/update")) {
      params.put("inputResponses", new JsonObject());
    }
    return modern(client, method, params, taskId);
  }

  private static JsonObject result(HttpReply reply) {
    assertEquals(200, reply.status(), reply::toString);
    List<JsonObject> messages = reply.messages();
    JsonObject response = messages.get(messages.size() - 1);
    assertTrue(response.containsKey("result"), reply::toString);
    return response.getJsonObject("result");
  }

  /** Alice's {@code slow} call, which the server makes a task at once: its id. */
  private Future<String> createExtensionTask(StreamableHttp client, String gate) {
    return modern(client, "tools/call", slow(gate), "slow").map(reply -> {
      JsonObject created = result(reply);
      assertEquals("task", created.getString("resultType"), created::encode);
      assertValid(EXT_SCHEMA, "CreateTaskResult", created);
      return created.getString("taskId");
    });
  }

  /** What a client gets for {@code method} on {@code taskId} and on an id nobody ever had: status and error. */
  private Future<List<Object>> extensionRefusals(StreamableHttp client, String method, String taskId) {
    String unknown = "x".repeat(taskId.length());
    return taskRequest(client, method, taskId).compose(owned -> taskRequest(client, method, unknown)
        .map(never -> List.of(owned.status(), error(owned, MODERN, owned.status()), never.status(),
            error(never, MODERN, never.status()))));
  }

  @Test
  void extensionTasksAnswerOnlyTheirPrincipalOnTheStatelessWire(Vertx vertx, VertxTestContext test) {
    String[] task = new String[1];
    StreamableHttp[] clients = new StreamableHttp[4];
    start(vertx).compose(server -> {
      clients[0] = server.client().withBearer(token("alice"));
      clients[1] = server.client().withBearer(token("alice"));
      clients[2] = server.client().withBearer(token("bob"));
      clients[3] = server.client();
      return createExtensionTask(clients[0], "b");
    })
        .compose(created -> {
          task[0] = created;
          return Future.all(extensionRefusals(clients[2], "tasks/get", task[0]),
              extensionRefusals(clients[2], "tasks/update", task[0]),
              extensionRefusals(clients[2], "tasks/cancel", task[0]));
        })
        .compose(refusals -> {
          for (int i = 0; i < 3; i++) {
            List<Object> pair = refusals.resultAt(i);
            assertEquals(INVALID_PARAMS, ((JsonObject) pair.get(1)).getInteger("code"), pair::toString);
            assertEquals(pair.subList(2, 4), pair.subList(0, 2), "Alice's task reads to Bob as an unknown id");
          }
          return taskRequest(clients[3], "tasks/get", task[0]);
        })
        .compose(anonymous -> {
          assertRejected(anonymous, 401);
          assertTrue(anonymous.header("WWW-Authenticate").startsWith("Bearer "), anonymous::toString);
          return taskRequest(clients[1], "tasks/get", task[0]);
        })
        .compose(working -> {
          JsonObject got = result(working);
          assertValid(EXT_SCHEMA, "GetTaskResult", got);
          assertEquals("working", got.getString("status"), "Bob's tasks/cancel left the task alone");
          gate("b").complete();
          return Poll.retry(vertx, () -> taskRequest(clients[1], "tasks/get", task[0])
              .map(HttpAuthTasksTest::result), current -> !"working".equals(current.getString("status")));
        })
        .compose(done -> {
          assertValid(EXT_SCHEMA, "GetTaskResult", done);
          assertEquals("completed", done.getString("status"), done::encode);
          assertEquals("opened b", text(done.getJsonObject("result")));
          return Future.all(extensionRefusals(clients[2], "tasks/get", task[0]),
              extensionRefusals(clients[2], "tasks/cancel", task[0]));
        })
        .onComplete(test.succeeding(after -> test.verify(() -> {
          for (int i = 0; i < 2; i++) {
            List<Object> pair = after.resultAt(i);
            assertEquals(pair.subList(2, 4), pair.subList(0, 2), "a finished task of Alice's is still unknown to Bob");
          }
          test.completeNow();
        })));
  }

  // ---- 2026-07-28: task subscriptions ----

  private Future<SseStream> listen(StreamableHttp client, String... taskIds) {
    JsonObject params = new JsonObject().put("notifications", new JsonObject().put("taskIds", new JsonArray(
        List.of((Object[]) taskIds))));
    return client.open(client.options(HttpMethod.POST), headers("subscriptions/listen", null),
        body("subscriptions/listen", params).toBuffer());
  }

  private static boolean isTaskNotification(SseParser.Event event, String taskId, String status) {
    if (!event.hasMessage() || !"notifications/tasks".equals(event.message().getString("method"))) {
      return false;
    }
    JsonObject params = event.message().getJsonObject("params");
    return taskId.equals(params.getString("taskId")) && (status == null || status.equals(params.getString("status")));
  }

  private static JsonArray acknowledgedTaskIds(SseStream stream) {
    return stream.await(e -> e.hasMessage()
            && "notifications/subscriptions/acknowledged".equals(e.message().getString("method")))
        .map(ack -> ack.message().getJsonObject("params").getJsonObject("notifications").getJsonArray("taskIds"))
        .result();
  }

  @Test
  void taskSubscriptionsCarryOnlyTheSubscribersOwnTasks(Vertx vertx, VertxTestContext test) {
    String[] tasks = new String[2];
    SseStream[] streams = new SseStream[2];
    StreamableHttp[] clients = new StreamableHttp[3];
    start(vertx).compose(server -> {
      clients[0] = server.client().withBearer(token("alice"));
      clients[1] = server.client().withBearer(token("bob"));
      clients[2] = server.client();
      return Future.all(createExtensionTask(clients[0], "alice"), createExtensionTask(clients[1], "bob"));
    })
        .compose(created -> {
          tasks[0] = created.resultAt(0);
          tasks[1] = created.resultAt(1);
          return Future.all(listen(clients[0], tasks[0]), listen(clients[1], tasks[0], tasks[1]),
              listen(clients[2], tasks[0]).compose(SseStream::reply));
        })
        .compose(opened -> {
          streams[0] = opened.resultAt(0);
          streams[1] = opened.resultAt(1);
          assertRejected(opened.resultAt(2), 401);
          return Future.all(streams[0].await(e -> isTaskNotification(e, tasks[0], "working")),
              streams[1].await(e -> isTaskNotification(e, tasks[1], "working")));
        })
        .compose(initial -> {
          // Agreed to whoever asks, so the acknowledgement does not tell Bob that the id exists.
          assertEquals(new JsonArray().add(tasks[0]), acknowledgedTaskIds(streams[0]));
          assertEquals(new JsonArray().add(tasks[0]).add(tasks[1]), acknowledgedTaskIds(streams[1]));
          gate("alice").complete();
          return streams[0].await(e -> isTaskNotification(e, tasks[0], "completed"));
        })
        .compose(aliceDone -> {
          assertValid(EXT_SCHEMA, "TaskStatusNotification", aliceDone.message());
          assertEquals("opened alice", text(aliceDone.message().getJsonObject("params").getJsonObject("result")));
          // Bob's own task finishes after Alice's: once he hears of it, whatever Alice's change caused has come.
          gate("bob").complete();
          return streams[1].await(e -> isTaskNotification(e, tasks[1], "completed"));
        })
        .onComplete(test.succeeding(bobDone -> test.verify(() -> {
          assertFalse(streams[1].events().stream().anyMatch(e -> isTaskNotification(e, tasks[0], null)),
              () -> "Bob heard of Alice's task: " + streams[1].messages());
          assertFalse(streams[0].events().stream().anyMatch(e -> isTaskNotification(e, tasks[1], null)));
          streams[0].drop();
          streams[1].drop();
          test.completeNow();
        })));
  }

  @Test
  void aRefusedTaskSubscriptionHoldsNoWaiterSlots(Vertx vertx, VertxTestContext test) {
    // Two parties may wait on tasks in all. Bob names three ids: refused, and he must not keep the slots he got,
    // or anyone could use them up for good (tasks/result and subscriptions share them).
    McpServerOptions options = new McpServerOptions().setTaskOptions(new TaskOptions().setMaxResultWaiters(2));
    String[] task = new String[1];
    StreamableHttp[] clients = new StreamableHttp[2];
    start(vertx, options).compose(server -> {
      clients[0] = server.client().withBearer(token("alice"));
      clients[1] = server.client().withBearer(token("bob"));
      return createExtensionTask(clients[0], "d");
    })
        .compose(created -> {
          task[0] = created;
          String other = "y".repeat(created.length());
          return listen(clients[1], task[0], other, "z".repeat(created.length())).compose(SseStream::reply);
        })
        .compose(refused -> {
          assertEquals(-32005, error(refused, MODERN, 200).getInteger("code"), refused::toString);
          assertEquals(1, refused.messages().size(), () -> "the error alone: " + refused);
          return listen(clients[0], task[0], "w".repeat(task[0].length()));
        })
        .compose(stream -> stream.await(e -> isTaskNotification(e, task[0], "working")).map(stream))
        .onComplete(test.succeeding(stream -> test.verify(() -> {
          assertEquals(new JsonArray().add(task[0]).add("w".repeat(task[0].length())), acknowledgedTaskIds(stream));
          stream.drop();
          gate("d").complete();
          test.completeNow();
        })));
  }
}
