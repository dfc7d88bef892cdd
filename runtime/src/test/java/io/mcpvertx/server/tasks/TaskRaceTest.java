package io.mcpvertx.server.tasks;

import static io.mcpvertx.server.tasks.TaskFixtures.announced;
import static io.mcpvertx.server.tasks.TaskFixtures.assertError;
import static io.mcpvertx.server.tasks.TaskFixtures.assertNoViolations;
import static io.mcpvertx.server.tasks.TaskFixtures.byId;
import static io.mcpvertx.server.tasks.TaskFixtures.createId;
import static io.mcpvertx.server.tasks.TaskFixtures.get;
import static io.mcpvertx.server.tasks.TaskFixtures.open;
import static io.mcpvertx.server.tasks.TaskFixtures.relatedTaskId;
import static io.mcpvertx.server.tasks.TaskFixtures.server;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.tasks.TaskFixtures.Jobs;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A handler completing at the moment its task is cancelled (2025-11-25, "Task Status Lifecycle": terminal
 * statuses MUST NOT change; "Task Cancellation": a cancelled task MUST stay cancelled). Whichever wins, every
 * answer the client gets tells the same story.
 */
@ExtendWith(VertxExtension.class)
class TaskRaceTest {

  private static final int ROUNDS = 300;

  @Test
  @Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
  void settlesCompletionAndCancellationOnOneTerminalState(Vertx vertx, VertxTestContext test) {
    Jobs jobs = new Jobs();
    // Another event loop than the session's: there the handler's completion really runs beside the cancel.
    Context elsewhere = vertx.getOrCreateContext();
    AtomicInteger cancelWins = new AtomicInteger();
    open(vertx, server(vertx, jobs)).compose(client -> {
      Future<Void> rounds = Future.succeededFuture();
      for (int i = 0; i < ROUNDS; i++) {
        int round = i;
        rounds = rounds.compose(v -> round(client, jobs, round, elsewhere, cancelWins));
      }
      return rounds.map(v -> {
        // Each outcome is met: the rounds that cancel first, if no other, are won by the cancellation.
        assertTrue(cancelWins.get() > 0 && cancelWins.get() < ROUNDS, cancelWins + " of " + ROUNDS);
        assertNoViolations(client);
        return v;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  /**
   * One race, in one of three ways by round: the handler completes on {@code elsewhere} while the session serves
   * the cancel; or both on the session's context, completion first; or cancel first.
   */
  private static Future<Void> round(McpTestClient client, Jobs jobs, int index, Context elsewhere,
      AtomicInteger cancelWins) {
    return createId(client, "job").compose(id -> jobs.job(index).compose(job -> {
      Future<JsonObject> waiting = client.request("tasks/result", byId(id));
      Future<JsonObject> cancel;
      switch (index % 3) {
        case 0 -> {
          elsewhere.runOnContext(v -> job.result().tryComplete(ToolResult.text("done " + index)));
          cancel = client.request("tasks/cancel", byId(id));
        }
        case 1 -> {
          job.complete("done " + index);
          cancel = client.request("tasks/cancel", byId(id));
        }
        default -> {
          cancel = client.request("tasks/cancel", byId(id));
          job.complete("done " + index);
        }
      }
      return Future.all(cancel, waiting).compose(both -> {
        boolean cancelled = cancel.result().containsKey("result");
        if (cancelled) {
          cancelWins.incrementAndGet();
          assertEquals("cancelled", cancel.result().getJsonObject("result").getString("status"));
        } else {
          // The handler got there first: the task is terminal, so the cancel is refused.
          assertError(cancel.result(), -32602);
        }
        String expected = cancelled ? "cancelled" : "completed";
        assertOutcome(waiting.result(), cancelled, id, index);
        return get(client, id).compose(task -> {
          assertEquals(expected, task.getString("status"), "round " + index);
          return client.request("tasks/result", byId(id));
        }).compose(again -> {
          assertOutcome(again, cancelled, id, index);
          return client.call("ping", null);
        }).map(pong -> {
          List<String> terminal = announced(client, id).stream()
              .filter(s -> !s.equals("working") && !s.equals("input_required")).toList();
          assertTrue(terminal.isEmpty() || terminal.equals(List.of(expected)),
              "round " + index + ": announced " + terminal + ", but the task is " + expected);
          return null;
        });
      });
    })).mapEmpty();
  }

  private static void assertOutcome(JsonObject response, boolean cancelled, String id, int index) {
    if (cancelled) {
      assertTrue(response.containsKey("error"), "round " + index + ": " + response.encode());
    } else {
      JsonObject result = response.getJsonObject("result");
      assertEquals("done " + index, result.getJsonArray("content").getJsonObject(0).getString("text"));
      assertEquals(id, relatedTaskId(result));
    }
  }
}
