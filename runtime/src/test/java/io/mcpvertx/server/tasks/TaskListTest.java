package io.mcpvertx.server.tasks;

import static io.mcpvertx.server.tasks.TaskFixtures.assertError;
import static io.mcpvertx.server.tasks.TaskFixtures.assertNoViolations;
import static io.mcpvertx.server.tasks.TaskFixtures.assertTask;
import static io.mcpvertx.server.tasks.TaskFixtures.awaitStatus;
import static io.mcpvertx.server.tasks.TaskFixtures.byId;
import static io.mcpvertx.server.tasks.TaskFixtures.createId;
import static io.mcpvertx.server.tasks.TaskFixtures.get;
import static io.mcpvertx.server.tasks.TaskFixtures.open;
import static io.mcpvertx.server.tasks.TaskFixtures.server;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.tasks.TaskFixtures.Jobs;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * tasks/list and who sees which task (2025-11-25, "Task Listing", "Protocol Errors", "Task Isolation and Access
 * Control"): a requester sees only its own tasks, bound to its principal when authenticated and to its session
 * otherwise, page by page.
 */
@ExtendWith(VertxExtension.class)
class TaskListTest {

  private static final Principal ADA = new Principal("https://issuer.example", "ada", Set.of());
  private static final Principal BOB = new Principal("https://issuer.example", "bob", Set.of());

  /** Every task of the client's listing, page after page, in order. */
  private static Future<List<JsonObject>> listAll(McpTestClient client) {
    return listFrom(client, null, new ArrayList<>());
  }

  private static Future<List<JsonObject>> listFrom(McpTestClient client, String cursor, List<JsonObject> seen) {
    JsonObject params = cursor == null ? new JsonObject() : new JsonObject().put("cursor", cursor);
    return client.call("tasks/list", params).compose(page -> {
      page.getJsonArray("tasks").forEach(task -> seen.add(assertTask((JsonObject) task)));
      String next = page.getString("nextCursor");
      return next == null ? Future.succeededFuture(seen) : listFrom(client, next, seen);
    });
  }

  private static List<String> ids(List<JsonObject> tasks) {
    return tasks.stream().map(t -> t.getString("taskId")).toList();
  }

  /** Creates {@code count} tasks of {@code tool}, one after the other; yields their ids in creation order. */
  private static Future<List<String>> createMany(McpTestClient client, String tool, int count) {
    Future<List<String>> ids = Future.succeededFuture(new ArrayList<>());
    for (int i = 0; i < count; i++) {
      ids = ids.compose(list -> createId(client, tool).map(id -> {
        list.add(id);
        return list;
      }));
    }
    return ids;
  }

  /**
   * Without authorization a task belongs to the session that created it: another session lists none of it, and
   * MUST get -32602 from tasks/get, tasks/result and tasks/cancel, exactly as for an id that does not exist.
   */
  @Test
  void scopesTasksToTheSessionWithoutAuthorization(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    McpServer server = server(vertx, jobs);
    Future.all(open(vertx, server), open(vertx, server)).compose(both -> {
      McpTestClient alice = both.resultAt(0);
      McpTestClient other = both.resultAt(1);
      return createMany(alice, "job", 2).compose(aliceIds -> createId(other, "job").compose(otherId ->
          listAll(alice).compose(aliceList -> {
            assertEquals(aliceIds, ids(aliceList));
            return listAll(other);
          }).compose(otherList -> {
            assertEquals(List.of(otherId), ids(otherList));
            return assertForeign(other, aliceIds.get(0));
          }).compose(v -> get(alice, aliceIds.get(0))).map(task -> {
            assertEquals("working", task.getString("status"), "the other session's cancel did nothing");
            assertNoViolations(alice);
            assertNoViolations(other);
            return task;
          })));
    }).onComplete(test.succeedingThenComplete());
  }

  /**
   * MUST: with an authorization context, tasks are bound to it: the same principal sees and uses its tasks from
   * another session; another principal can neither list nor reach them.
   */
  @Test
  void bindsTasksToThePrincipalAcrossSessions(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    McpServer server = server(vertx, jobs);
    Future.all(open(vertx, server, ADA), open(vertx, server, ADA), open(vertx, server, BOB)).compose(all -> {
      McpTestClient first = all.resultAt(0);
      McpTestClient second = all.resultAt(1);
      McpTestClient bob = all.resultAt(2);
      return createId(first, "job").compose(id -> listAll(second).compose(list -> {
        assertEquals(List.of(id), ids(list));
        return get(second, id);
      }).compose(task -> {
        assertEquals("working", task.getString("status"));
        return listAll(bob);
      }).compose(bobList -> {
        assertTrue(bobList.isEmpty(), bobList.toString());
        return assertForeign(bob, id);
      }).compose(v -> {
        Future<JsonObject> result = second.call("tasks/result", byId(id));
        return jobs.job(0).compose(job -> {
          job.complete("seen from the second session");
          return result;
        });
      }).compose(result -> {
        assertEquals("seen from the second session",
            result.getJsonArray("content").getJsonObject(0).getString("text"));
        assertNoViolations(first);
        assertNoViolations(second);
        assertNoViolations(bob);
        return Future.succeededFuture(id);
      }));
    }).onComplete(test.succeedingThenComplete());
  }

  /** A principal's task outlives the session that created it: another session of the principal collects it. */
  @Test
  void letsThePrincipalCollectATaskAfterItsSessionClosed(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    McpServer server = server(vertx, jobs);
    open(vertx, server, ADA).compose(first -> createId(first, "job").compose(id -> first.close()
        .compose(closed -> open(vertx, server, ADA)).compose(second -> jobs.job(0).compose(job -> {
          job.complete("kept");
          return second.call("tasks/result", byId(id));
        }).map(result -> {
          assertEquals("kept", result.getJsonArray("content").getJsonObject(0).getString("text"));
          assertNoViolations(second);
          return result;
        })))).onComplete(test.succeedingThenComplete());
  }

  /** A requester that does not own the task gets what it would get for an id that never existed: -32602. */
  private static Future<Void> assertForeign(McpTestClient client, String taskId) {
    String unknown = "no-such-task-" + taskId.length();
    List<Future<JsonObject>> answers = new ArrayList<>();
    for (String method : List.of("tasks/get", "tasks/result", "tasks/cancel")) {
      answers.add(client.request(method, byId(taskId)));
      answers.add(client.request(method, byId(unknown)));
    }
    return Future.all(answers).map(all -> {
      for (int i = 0; i < answers.size(); i += 2) {
        JsonObject foreign = assertError(answers.get(i).result(), -32602);
        JsonObject missing = assertError(answers.get(i + 1).result(), -32602);
        assertEquals(missing, foreign, "a foreign task must look like a missing one");
        assertFalse(foreign.encode().contains(taskId), "the error does not echo the id");
      }
      return null;
    });
  }

  /** SHOULD page; MUST: a nextCursor whenever more tasks are available, and none on the last page. */
  @Test
  void pagesTheTasksWithANextCursor(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx, new McpServerOptions().setPageSize(2), new Jobs());
    open(vertx, server).compose(client -> createMany(client, "job", 5).compose(created ->
        client.call("tasks/list", null).compose(first -> {
          assertEquals(2, first.getJsonArray("tasks").size());
          assertTrue(first.containsKey("nextCursor"));
          return client.call("tasks/list", new JsonObject().put("cursor", first.getString("nextCursor")));
        }).compose(second -> {
          assertEquals(2, second.getJsonArray("tasks").size());
          assertTrue(second.containsKey("nextCursor"));
          return client.call("tasks/list", new JsonObject().put("cursor", second.getString("nextCursor")));
        }).compose(third -> {
          assertEquals(1, third.getJsonArray("tasks").size());
          assertFalse(third.containsKey("nextCursor"), "no more tasks: " + third.encode());
          return listAll(client);
        }).map(all -> {
          assertEquals(created, ids(all), "every task once, oldest first");
          assertNoViolations(client);
          return all;
        }))).onComplete(test.succeedingThenComplete());
  }

  @Test
  void givesNoCursorWhenTheTasksFillExactlyOnePage(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx, new McpServerOptions().setPageSize(2), new Jobs());
    open(vertx, server).compose(client -> createMany(client, "job", 2)
        .compose(created -> client.call("tasks/list", null)).map(page -> {
          assertEquals(2, page.getJsonArray("tasks").size());
          assertFalse(page.containsKey("nextCursor"), page.encode());
          return page;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void listsNothingForASessionWithoutTasks(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx, new Jobs())).compose(client -> client.call("tasks/list", null).map(page -> {
      assertEquals(new JsonObject().put("tasks", new JsonArray()), page);
      assertNoViolations(client);
      return page;
    })).onComplete(test.succeedingThenComplete());
  }

  /** MUST: an invalid or nonexistent cursor gets -32602, including one issued to another requester. */
  @Test
  void refusesACursorItDidNotIssueToTheRequester(Vertx vertx, VertxTestContext test) {
    McpServer server = server(vertx, new McpServerOptions().setPageSize(1), new Jobs());
    Future.all(open(vertx, server), open(vertx, server)).compose(both -> {
      McpTestClient owner = both.resultAt(0);
      McpTestClient other = both.resultAt(1);
      return createMany(owner, "job", 2).compose(ids -> owner.call("tasks/list", null)).compose(page -> {
        String cursor = page.getString("nextCursor");
        List<Future<JsonObject>> answers = List.of(
            owner.request("tasks/list", new JsonObject().put("cursor", "not-a-cursor")),
            owner.request("tasks/list", new JsonObject().put("cursor", cursor + "x")),
            owner.request("tasks/list", new JsonObject().put("cursor", 42)),
            other.request("tasks/list", new JsonObject().put("cursor", cursor)));
        return Future.all(answers).map(all -> {
          answers.forEach(answer -> assertError(answer.result(), -32602));
          assertNoViolations(owner);
          assertNoViolations(other);
          return all;
        });
      });
    }).onComplete(test.succeedingThenComplete());
  }

  /** MUST: a task retrievable with tasks/get is retrievable with tasks/list, whatever its status. */
  @Test
  void listsEveryTaskTasksGetCanRetrieve(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    McpServer server = server(vertx, new McpServerOptions().setPageSize(2), jobs)
        .tool(Tool.builder("refuse").taskSupport(TaskSupport.OPTIONAL).build(),
            (args, ctx) -> Future.succeededFuture(ToolResult.error("no")));
    open(vertx, server).compose(client -> {
      Map<String, String> expected = new HashMap<>();
      return createId(client, "job").compose(working -> {
        expected.put(working, "working");
        return createId(client, "quick");
      }).compose(completed -> {
        expected.put(completed, "completed");
        return awaitStatus(client, completed, "completed").compose(x -> createId(client, "refuse"));
      }).compose(failed -> {
        expected.put(failed, "failed");
        return awaitStatus(client, failed, "failed").compose(x -> createId(client, "job"));
      }).compose(cancelled -> {
        expected.put(cancelled, "cancelled");
        return client.call("tasks/cancel", byId(cancelled));
      }).compose(x -> listAll(client)).compose(listed -> {
        Map<String, String> statuses = new HashMap<>();
        listed.forEach(task -> statuses.put(task.getString("taskId"), task.getString("status")));
        assertEquals(expected, statuses);
        List<Future<JsonObject>> gets = new ArrayList<>();
        listed.forEach(task -> gets.add(get(client, task.getString("taskId"))));
        return Future.all(gets).map(all -> {
          for (int i = 0; i < listed.size(); i++) {
            assertEquals(listed.get(i), gets.get(i).result(), "tasks/list and tasks/get agree");
          }
          assertNoViolations(client);
          return all;
        });
      });
    }).onComplete(test.succeedingThenComplete());
  }
}
