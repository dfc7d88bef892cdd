package io.mcpvertx.server.tasks;

import static io.mcpvertx.server.tasks.TaskFixtures.awaitAnnounced;
import static io.mcpvertx.server.tasks.TaskFixtures.assertNoViolations;
import static io.mcpvertx.server.tasks.TaskFixtures.assertValidPath;
import static io.mcpvertx.server.tasks.TaskFixtures.awaitStatus;
import static io.mcpvertx.server.tasks.TaskFixtures.byId;
import static io.mcpvertx.server.tasks.TaskFixtures.createId;
import static io.mcpvertx.server.tasks.TaskFixtures.open;
import static io.mcpvertx.server.tasks.TaskFixtures.relatedTaskId;
import static io.mcpvertx.server.tasks.TaskFixtures.V;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.client.ElicitRequest;
import io.mcpvertx.server.client.SamplingRequest;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A task that needs input (2025-11-25, "Input Required Status", "Associating Task-Related Messages"): the task
 * goes input_required, its elicitation and sampling requests travel on the stream of the client's tasks/result,
 * tagged with the related task, and the task goes back to working once answered.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
class TaskInputTest {

  private static final JsonObject ELICITATION = new JsonObject().put("elicitation", new JsonObject());
  private static final JsonObject SAMPLING = new JsonObject().put("sampling", new JsonObject());
  private static final JsonObject CITY = new JsonObject().put("type", "object")
      .put("properties", new JsonObject().put("city", new JsonObject().put("type", "string")));

  /** Gates the test opens: {@code ask} before the tool asks, {@code finish} before it answers. */
  private static final class Gates {
    final Promise<Void> ask = Promise.promise();
    final Promise<Void> finish = Promise.promise();
    final Promise<String> askOutcome = Promise.promise();
  }

  /**
   * {@code interview} asks which city by elicitation, {@code oracle} asks a model by sampling; each then waits for
   * {@code finish} and reports the answer. The outcome of the request for input is also handed to the test.
   */
  private static McpServer server(Vertx vertx, Gates gates, boolean waitBeforeAsking) {
    Future<Void> before = waitBeforeAsking ? gates.ask.future() : Future.succeededFuture();
    return McpServer.create(vertx)
        .tool(Tool.builder("interview").taskSupport(TaskSupport.OPTIONAL).build(), (args, ctx) -> before
            .compose(v -> ctx.elicit(ElicitRequest.form("Which city?", CITY)))
            .onComplete(ar -> gates.askOutcome.tryComplete(ar.succeeded() ? "answered"
                : ar.cause() instanceof McpException e ? "failed " + e.code() : "failed"))
            .compose(answer -> gates.finish.future().map(v -> ToolResult.text("city: "
                + answer.content().getString("city")))))
        .tool(Tool.builder("oracle").taskSupport(TaskSupport.OPTIONAL).build(), (args, ctx) -> before
            .compose(v -> ctx.sample(SamplingRequest.prompt("Capital of France?", 50)))
            .compose(answer -> gates.finish.future().map(v -> ToolResult.text("oracle: " + answer.text()))));
  }

  private static JsonObject acceptCity(String city) {
    return new JsonObject().put("action", "accept").put("content", new JsonObject().put("city", city));
  }

  /** Completes with the next server request once the client has received it. */
  private static Future<JsonObject> answering(McpTestClient client, String method, JsonObject answer) {
    Promise<JsonObject> asked = Promise.promise();
    client.onRequest(method, params -> {
      asked.tryComplete(params);
      return Future.succeededFuture(answer);
    });
    return asked.future();
  }

  /**
   * The whole round: working, input_required (the request waits for tasks/result), the elicitation on the
   * tasks/result stream with the related task (MUST), working again once answered, then completed.
   */
  @Test
  void asksForInputOnTheTasksResultStreamWhileInputRequired(Vertx vertx, VertxTestContext test) {
    Gates gates = new Gates();
    open(vertx, server(vertx, gates, false), V, ELICITATION).compose(client -> {
      Future<JsonObject> asked = answering(client, "elicitation/create", acceptCity("Lyon"));
      return createId(client, "interview").compose(id -> awaitStatus(client, id, "input_required").compose(task -> {
        assertTrue(client.serverRequests().isEmpty(), "the request waits for a tasks/result to carry it");
        long resultId = client.nextRequestId();
        Future<JsonObject> result = client.call("tasks/result", byId(id));
        return asked.compose(params -> {
          JsonObject request = client.serverRequests().get(0);
          assertEquals("elicitation/create", request.getString("method"));
          assertEquals(id, relatedTaskId(params), "MUST: the request names its task");
          assertEquals("Which city?", params.getString("message"));
          assertEquals(resultId, client.streamOf(request), "it travels on the tasks/result stream");
          return awaitStatus(client, id, "working");
        }).compose(working -> {
          assertFalse(result.isComplete(), "answered, but not finished yet");
          gates.finish.complete();
          return result;
        }).compose(payload -> {
          assertEquals("city: Lyon", payload.getJsonArray("content").getJsonObject(0).getString("text"));
          assertEquals(id, relatedTaskId(payload));
          return awaitAnnounced(client, id, "completed");
        }).map(statuses -> {
          assertEquals(List.of("input_required", "working", "completed"), statuses);
          assertValidPath(statuses);
          assertNoViolations(client);
          return statuses;
        });
      }));
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void sendsInputRequestsToATasksResultThatIsAlreadyWaiting(Vertx vertx, VertxTestContext test) {
    Gates gates = new Gates();
    open(vertx, server(vertx, gates, true), V, ELICITATION).compose(client -> {
      Future<JsonObject> asked = answering(client, "elicitation/create", acceptCity("Graz"));
      return createId(client, "interview").compose(id -> {
        long resultId = client.nextRequestId();
        Future<JsonObject> result = client.call("tasks/result", byId(id));
        return client.call("ping", null).compose(pong -> {
          gates.ask.complete();
          gates.finish.complete();
          return asked;
        }).compose(params -> {
          assertEquals(id, relatedTaskId(params));
          assertEquals(resultId, client.streamOf(client.serverRequests().get(0)));
          return result;
        }).map(payload -> {
          assertEquals("city: Graz", payload.getJsonArray("content").getJsonObject(0).getString("text"));
          assertNoViolations(client);
          return payload;
        });
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void samplesOnTheTasksResultStreamWhileInputRequired(Vertx vertx, VertxTestContext test) {
    Gates gates = new Gates();
    gates.finish.complete();
    JsonObject reply = new JsonObject().put("role", "assistant").put("model", "test-model")
        .put("content", new JsonObject().put("type", "text").put("text", "Paris"));
    open(vertx, server(vertx, gates, false), V, SAMPLING).compose(client -> {
      Future<JsonObject> asked = answering(client, "sampling/createMessage", reply);
      return createId(client, "oracle").compose(id -> awaitStatus(client, id, "input_required").compose(task -> {
        assertTrue(client.serverRequests().isEmpty());
        long resultId = client.nextRequestId();
        Future<JsonObject> result = client.call("tasks/result", byId(id));
        return asked.compose(params -> {
          assertEquals(id, relatedTaskId(params));
          assertEquals(resultId, client.streamOf(client.serverRequests().get(0)));
          return result;
        }).compose(payload -> {
          assertEquals("oracle: Paris", payload.getJsonArray("content").getJsonObject(0).getString("text"));
          return awaitAnnounced(client, id, "completed");
        }).map(statuses -> {
          assertValidPath(statuses);
          assertTrue(statuses.contains("input_required"), statuses.toString());
          assertNoViolations(client);
          return statuses;
        });
      }));
    }).onComplete(test.succeedingThenComplete());
  }

  /** MUST: the notification that a URL elicitation of the task completed is related to the task, so it names it. */
  @Test
  void tagsTheCompletionOfAUrlElicitationWithTheTask(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).tool(Tool.builder("connect").taskSupport(TaskSupport.OPTIONAL)
        .build(), (args, ctx) -> ctx.elicit(ElicitRequest.url("Connect your account", "https://example.com/connect",
            "elic-7")).map(answer -> {
              ctx.elicitationComplete("elic-7");
              return ToolResult.text("connected");
            }));
    JsonObject urlCapable = new JsonObject().put("elicitation", new JsonObject().put("url", new JsonObject()));
    open(vertx, server, V, urlCapable).compose(client -> {
      Future<JsonObject> asked = answering(client, "elicitation/create", new JsonObject().put("action", "accept"));
      return createId(client, "connect").compose(id -> {
        Future<JsonObject> result = client.call("tasks/result", byId(id));
        return asked.compose(params -> {
          assertEquals(id, relatedTaskId(params));
          return Future.all(result, client.awaitNotification("notifications/elicitation/complete"));
        }).map(both -> {
          JsonObject complete = both.<JsonObject>resultAt(1).getJsonObject("params");
          assertEquals("elic-7", complete.getString("elicitationId"));
          assertEquals(id, relatedTaskId(complete));
          assertNoViolations(client);
          return both;
        });
      });
    }).onComplete(test.succeedingThenComplete());
  }

  /** A request for input the client never got to see must not leave the handler waiting once the task is over. */
  @Test
  void failsAQueuedRequestForInputWhenTheTaskIsCancelled(Vertx vertx, VertxTestContext test) {
    Gates gates = new Gates();
    open(vertx, server(vertx, gates, false), V, ELICITATION).compose(client ->
        createId(client, "interview").compose(id -> awaitStatus(client, id, "input_required")
            .compose(task -> client.call("tasks/cancel", byId(id)))
            .compose(cancelled -> gates.askOutcome.future())
            .map(outcome -> {
              assertEquals("failed -32007", outcome);
              assertTrue(client.serverRequests().isEmpty(), "nothing was sent for a cancelled task");
              assertNoViolations(client);
              return outcome;
            }))).onComplete(test.succeedingThenComplete());
  }

  /** A request for input already sent is withdrawn (notifications/cancelled) when its task is cancelled. */
  @Test
  void withdrawsASentRequestForInputWhenTheTaskIsCancelled(Vertx vertx, VertxTestContext test) {
    Gates gates = new Gates();
    Promise<JsonObject> asked = Promise.promise();
    open(vertx, server(vertx, gates, false), V, ELICITATION).compose(client -> {
      client.onRequest("elicitation/create", params -> {
        asked.tryComplete(params);
        return Promise.<JsonObject>promise().future(); // the user never answers
      });
      return createId(client, "interview").compose(id -> {
        Future<JsonObject> result = client.request("tasks/result", byId(id));
        return asked.future().compose(params -> client.call("tasks/cancel", byId(id)))
            .compose(cancelled -> Future.all(gates.askOutcome.future(),
                client.awaitNotification("notifications/cancelled"), result))
            .map(all -> {
              assertEquals("failed -32007", gates.askOutcome.future().result());
              JsonObject withdrawn = client.notifications("notifications/cancelled").get(0).getJsonObject("params");
              assertEquals(client.serverRequests().get(0).getValue("id"), withdrawn.getValue("requestId"));
              assertEquals(id, relatedTaskId(withdrawn), "the withdrawal is related to the task too");
              assertTrue(result.result().containsKey("error"), "a cancelled task has no result");
              assertNoViolations(client);
              return all;
            });
      });
    }).onComplete(test.succeedingThenComplete());
  }

  /**
   * A task's handler outlives the tools/call that started it, and the client may reuse that request's id once it
   * was answered: cancelling the task must not withdraw the requests of the newer request with the same id.
   */
  @Test
  void cancellingATaskLeavesTheRequestsOfALaterRequestWithTheSameIdAlone(Vertx vertx, VertxTestContext test) {
    Gates gates = new Gates();
    gates.finish.complete();
    Promise<JsonObject> answer = Promise.promise();
    Promise<JsonObject> asked = Promise.promise();
    McpServer server = server(vertx, gates, false).tool(Tool.builder("slow").taskSupport(TaskSupport.OPTIONAL)
        .build(), (args, ctx) -> Promise.<ToolResult>promise().future());
    open(vertx, server, V, ELICITATION).compose(client -> {
      client.onRequest("elicitation/create", params -> {
        asked.tryComplete(params);
        return answer.future();
      });
      client.send(frame("same", new JsonObject().put("name", "slow").put("task", new JsonObject())));
      return unmatched(client, 1).compose(created -> {
        String taskId = created.getJsonObject("result").getJsonObject("task").getString("taskId");
        // The id is free again: a direct call of interview reuses it, and asks the user.
        client.send(frame("same", new JsonObject().put("name", "interview")));
        return asked.future().compose(params -> client.call("tasks/cancel", byId(taskId)));
      }).compose(cancelled -> client.call("ping", null)).compose(pong -> {
        assertTrue(client.notifications("notifications/cancelled").isEmpty(),
            "the direct call's elicitation was withdrawn: " + client.notifications());
        answer.complete(new JsonObject().put("action", "accept").put("content", new JsonObject().put("city", "Oslo")));
        return unmatched(client, 2);
      }).map(direct -> {
        assertEquals("city: Oslo", direct.getJsonObject("result").getJsonArray("content").getJsonObject(0)
            .getString("text"), direct.encode());
        assertNoViolations(client);
        return direct;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  private static io.vertx.core.buffer.Buffer frame(String id, JsonObject params) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call").put("params", params)
        .toBuffer();
  }

  /** The {@code count}-th frame that answered none of the client's own requests, once it came. */
  private static Future<JsonObject> unmatched(McpTestClient client, int count) {
    if (client.unmatched().size() >= count) {
      return Future.succeededFuture((JsonObject) client.unmatched().get(count - 1));
    }
    return client.context().owner().timer(5).compose(t -> unmatched(client, count));
  }
}
