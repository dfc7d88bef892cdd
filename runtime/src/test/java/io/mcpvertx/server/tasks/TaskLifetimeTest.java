package io.mcpvertx.server.tasks;

import static io.mcpvertx.server.tasks.TaskFixtures.assertError;
import static io.mcpvertx.server.tasks.TaskFixtures.assertNoViolations;
import static io.mcpvertx.server.tasks.TaskFixtures.byId;
import static io.mcpvertx.server.tasks.TaskFixtures.create;
import static io.mcpvertx.server.tasks.TaskFixtures.createId;
import static io.mcpvertx.server.tasks.TaskFixtures.open;
import static io.mcpvertx.server.tasks.TaskFixtures.server;
import static io.mcpvertx.server.tasks.TaskFixtures.taskCall;
import static io.mcpvertx.testing.stores.McpStoresTesting.tasksIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.server.tasks.TaskFixtures.Jobs;
import io.mcpvertx.spi.tasks.memory.InMemoryTaskStore;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * How long tasks live and how many one requester may have (2025-11-25, "TTL and Resource Management", "Resource
 * Management", "Protocol Errors"): an expired task is gone and nobody waits for it in vain; the per-requester and
 * per-server limits refuse with -32005; a store outage is an internal error.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
class TaskLifetimeTest {

  private static McpServerOptions options(TaskOptions tasks) {
    return new McpServerOptions().setTaskOptions(tasks);
  }

  /**
   * MAY delete after the ttl: we do, and then tasks/get, tasks/result and tasks/cancel answer -32602; a tasks/result
   * already waiting fails instead of hanging, and the handler is told to stop.
   */
  @Test
  void forgetsATaskWhenItsTtlHasElapsed(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    open(vertx, server(vertx, jobs)).compose(client -> create(client, taskCall("job", 300L)).compose(task -> {
      assertEquals(300L, task.getLong("ttl"));
      String id = task.getString("taskId");
      return client.request("tasks/result", byId(id)).compose(waited -> {
        assertError(waited, -32602);
        return jobs.job(0);
      }).compose(job -> job.cancelled().future().compose(reason -> {
        job.complete("too late");
        return Future.all(client.request("tasks/get", byId(id)), client.request("tasks/result", byId(id)),
            client.request("tasks/cancel", byId(id)), client.call("tasks/list", null));
      })).map(all -> {
        for (int i = 0; i < 3; i++) {
          assertError(all.resultAt(i), -32602);
        }
        JsonObject list = all.resultAt(3);
        assertFalse(list.encode().contains(id), "an expired task is not listed: " + list.encode());
        assertNoViolations(client);
        return all;
      });
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void freesTheOwnersSlotWhenATaskExpires(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    McpServer server = server(vertx, options(new TaskOptions().setMaxActivePerOwner(1)), jobs);
    open(vertx, server).compose(client -> create(client, taskCall("job", 200L)).compose(first ->
        client.request("tasks/result", byId(first.getString("taskId")))).compose(expired -> {
          assertError(expired, -32602);
          return createId(client, "job");
        }).map(second -> {
          assertNoViolations(client);
          return second;
        })).onComplete(test.succeedingThenComplete());
  }

  /** SHOULD limit concurrent tasks per requester: past TaskOptions.maxActivePerOwner, -32005 until one ends. */
  @Test
  void refusesTasksBeyondTheRequestersLimitUntilOneEnds(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    McpServer server = server(vertx, options(new TaskOptions().setMaxActivePerOwner(2)), jobs);
    Future.all(open(vertx, server), open(vertx, server)).compose(both -> {
      McpTestClient client = both.resultAt(0);
      McpTestClient other = both.resultAt(1);
      return createId(client, "job").compose(first -> createId(client, "job").compose(second ->
          client.request("tools/call", taskCall("job"))).compose(third -> {
            assertError(third, -32005);
            assertEquals(2, jobs.calls(), "the refused call ran nothing");
            // The limit is per requester: another session is not held back.
            return createId(other, "job");
          }).compose(others -> jobs.job(0)).compose(job -> {
            job.complete("done");
            return client.call("tasks/result", byId(first));
          }).compose(result -> createId(client, "job")).map(fourth -> {
            assertNoViolations(client);
            assertNoViolations(other);
            return fourth;
          }));
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void refusesTasksBeyondTheServersLimitOfRunningHandlers(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    McpServer server = server(vertx, options(new TaskOptions().setMaxLocalExecutions(1)), jobs);
    open(vertx, server).compose(client -> createId(client, "job").compose(first ->
        client.request("tools/call", taskCall("job"))).map(second -> {
          assertError(second, -32005);
          assertNoViolations(client);
          return second;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void refusesWaitersBeyondTheServersLimit(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    McpServer server = server(vertx, options(new TaskOptions().setMaxResultWaiters(1)), jobs);
    open(vertx, server).compose(client -> createId(client, "job").compose(id -> {
      Future<JsonObject> first = client.request("tasks/result", byId(id));
      return client.request("tasks/result", byId(id)).compose(second -> {
        assertError(second, -32005);
        assertFalse(first.isComplete());
        return jobs.job(0);
      }).compose(job -> {
        job.complete("done");
        return first;
      }).map(result -> {
        assertEquals("done", result.getJsonObject("result").getJsonArray("content").getJsonObject(0)
            .getString("text"));
        assertNoViolations(client);
        return result;
      });
    })).onComplete(test.succeedingThenComplete());
  }

  /** MUST: internal errors are -32603; what the store said stays in the log. */
  @Test
  void answersInternalErrorWhenTheTaskStoreIsDown(Vertx vertx, VertxTestContext test) {
    ControlledTaskStore store = new ControlledTaskStore(InMemoryTaskStore.create(vertx));
    McpServer server = new Jobs().register(McpServer.create(vertx, new McpServerOptions(), tasksIn(vertx, store)));
    open(vertx, server).compose(client -> createId(client, "job").compose(id -> {
      store.down = true;
      return Future.all(client.request("tasks/get", byId(id)), client.request("tasks/list", null),
          client.request("tasks/cancel", byId(id)), client.request("tools/call", taskCall("job")));
    }).map(all -> {
      for (int i = 0; i < 4; i++) {
        JsonObject error = assertError(all.resultAt(i), -32603);
        assertFalse(error.encode().contains("the disk is on fire"), error.encode());
      }
      assertNoViolations(client);
      return all;
    })).onComplete(test.succeedingThenComplete());
  }
}
