package io.mcpvertx.server.stateless;

import static io.mcpvertx.testing.StatelessTestClient.WITH_TASKS;
import static io.mcpvertx.server.stateless.StatelessFixtures.accept;
import static io.mcpvertx.server.stateless.StatelessFixtures.sampled;
import static io.mcpvertx.server.stateless.TaskTools.call;
import static io.mcpvertx.server.stateless.TaskTools.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.testing.SpecSchemas;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Input during a task of the tasks extension: a handler's questions become the task's {@code inputRequests}
 * ({@code input_required}), answered with {@code tasks/update}. Partial answers keep the task waiting for the rest;
 * keys that are not open are ignored; keys are never reused; an answer that is not a result of its question is
 * refused and leaves the question open.
 */
@ExtendWith(VertxExtension.class)
class TaskInputResponsesTest {

  private McpServer server;
  private StatelessTestClient client;
  private HeldCalls held;

  @BeforeEach
  void setUp(Vertx vertx) {
    held = new HeldCalls();
    server = TaskTools.register(StatelessFixtures.server(vertx), held);
    client = StatelessTestClient.engine(vertx, server);
  }

  /** Calls {@code tool} as a task; yields its id. */
  private Future<String> start(String tool, JsonObject capabilities) {
    return client.request("tools/call", call(tool)).capabilities(capabilities).send()
        .map(x -> x.task().getString("taskId"));
  }

  private Future<StatelessTestClient.Exchange> update(String taskId, JsonObject answers) {
    return client.request("tasks/update", new JsonObject().put("taskId", taskId).put("inputResponses", answers))
        .capabilities(WITH_TASKS.copy()).send();
  }

  /** Asserts an acknowledgement: resultType "complete" and nothing else but {@code _meta}. */
  private static void assertAck(StatelessTestClient.Exchange x) {
    assertEquals(Set.of("resultType", "_meta"), x.complete().fieldNames(), () -> x.response().encode());
  }

  /** Polls until the task waits for exactly these keys. */
  private Future<JsonObject> awaitOpen(String taskId, String... keys) {
    Set<String> wanted = Set.of(keys);
    return client.awaitTask(taskId, null, task -> task.getString("status").equals("input_required")
        && task.getJsonObject("inputRequests").fieldNames().equals(wanted));
  }

  @Test
  void partialAnswersLeaveTheOtherQuestionsOpenAndStrayKeysAreIgnored(VertxTestContext test) {
    start("interview", WITH_TASKS.copy()).compose(taskId -> awaitOpen(taskId, "first", "second").compose(task -> {
      JsonObject first = task.getJsonObject("inputRequests").getJsonObject("first");
      assertEquals("elicitation/create", first.getString("method"));
      assertEquals("First name?", first.getJsonObject("params").getString("message"));
      assertEquals(StatelessFixtures.oneString("name"), first.getJsonObject("params").getJsonObject("requestedSchema"));
      assertEquals(List.of(), SpecSchemas.violations(SpecSchemas.EXT_TASKS, "InputRequest", first));
      assertEquals("Favourite color?", task.getJsonObject("inputRequests").getJsonObject("second")
          .getJsonObject("params").getString("message"));
      // One answer and one key nobody asked: acknowledged; the other question stays open.
      return update(taskId, new JsonObject().put("first", accept("name", "Ann"))
          .put("never_asked", accept("name", "Nobody")));
    }).compose(ack -> {
      assertAck(ack);
      return awaitOpen(taskId, "second");
    }).compose(task -> {
      // The first question again, with another answer: it was answered, so this is ignored.
      return update(taskId, new JsonObject().put("first", accept("name", "Zed")));
    }).compose(ack -> {
      assertAck(ack);
      return client.getTask(taskId, null);
    }).compose(get -> {
      assertEquals(Set.of("second"), get.complete().getJsonObject("inputRequests").fieldNames());
      return update(taskId, new JsonObject().put("second", accept("name", "blue")));
    }).compose(ack -> {
      assertAck(ack);
      // All answered: the handler works again (it waits in HeldCalls), and asks nothing more.
      return client.awaitStatus(taskId, null, "working");
    }).compose(working -> {
      assertFalse(working.containsKey("inputRequests"), working::encode);
      return held.next().compose(h -> h.release());
    }).compose(v -> client.awaitStatus(taskId, null, "completed")))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          assertEquals("Answers: Ann, blue", text(task.getJsonObject("result")));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aQuestionAskedWhileWorkingMovesTheTaskToInputRequiredAndBack(VertxTestContext test) {
    start("work_ask_work", WITH_TASKS.copy()).compose(taskId -> client.getTask(taskId, null).compose(get -> {
      assertEquals("working", get.complete().getString("status"));
      return held.next().compose(h -> h.release());
    }).compose(v -> awaitOpen(taskId, "who"))
        .compose(task -> update(taskId, new JsonObject().put("who", accept("name", "Kim"))))
        .compose(ack -> held.next().compose(h -> client.getTask(taskId, null).compose(get -> {
          assertEquals("working", get.complete().getString("status"));
          return h.release();
        })))
        .compose(v -> client.awaitStatus(taskId, null, "completed")))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          assertEquals("Finished for Kim", text(task.getJsonObject("result")));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aQuestionAskedAfterPromotionGoesToTheTaskTheCallBecame(VertxTestContext test) {
    start("work_ask_later", WITH_TASKS.copy()).compose(taskId -> held.next().compose(HeldCalls.Held::release)
        .compose(v -> awaitOpen(taskId, "who"))
        .compose(task -> update(taskId, new JsonObject().put("who", accept("name", "Max"))))
        .compose(ack -> client.awaitStatus(taskId, null, "completed")))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          assertEquals("Finished for Max", text(task.getJsonObject("result")));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void questionsInTurnUseNewKeysAndAnsweredOnesDoNotComeBack(VertxTestContext test) {
    start("two_steps", WITH_TASKS.copy()).compose(taskId -> awaitOpen(taskId, "step1")
        .compose(task -> update(taskId, new JsonObject().put("step1", accept("name", "one"))))
        .compose(ack -> awaitOpen(taskId, "step2"))
        .compose(task -> update(taskId, new JsonObject().put("step2", accept("name", "two"))))
        .compose(ack -> client.awaitStatus(taskId, null, "completed")))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          assertEquals("one then two", text(task.getJsonObject("result")));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aHandlerAskingUnderAnAnsweredKeyAgainFailsTheTask(VertxTestContext test) {
    start("asks_twice", WITH_TASKS.copy()).compose(taskId -> awaitOpen(taskId, "k")
        .compose(task -> update(taskId, new JsonObject().put("k", accept("name", "once"))))
        .compose(ack -> client.awaitTask(taskId, null, task -> !Set.of("working", "input_required")
            .contains(task.getString("status")))))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          // The key is not offered a second time: the handler's second question is a bug on the server's side.
          assertEquals("failed", task.getString("status"));
          assertEquals(-32603, task.getJsonObject("error").getInteger("code"));
          assertTrue(task.getJsonObject("error").getString("message").contains("key k"), task::encode);
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void anAnswerThatIsNotAnElicitationResultIsRefusedAndTheQuestionStaysOpen(VertxTestContext test) {
    start("two_steps", WITH_TASKS.copy()).compose(taskId -> awaitOpen(taskId, "step1")
        .compose(task -> update(taskId, new JsonObject().put("step1", new JsonObject().put("action", "maybe"))))
        .compose(refused -> {
          assertTrue(refused.assertError(-32602).getString("message").contains("step1"),
              () -> refused.response().encode());
          return client.getTask(taskId, null);
        })
        .compose(get -> {
          JsonObject task = get.complete();
          assertEquals("input_required", task.getString("status"));
          assertEquals(Set.of("step1"), task.getJsonObject("inputRequests").fieldNames());
          // A refused update records nothing, not even its valid part.
          return update(taskId, new JsonObject().put("step1", accept("name", "fixed")));
        })
        .compose(ack -> awaitOpen(taskId, "step2")))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aTaskSamplesTheClientsModelThroughInputRequests(VertxTestContext test) {
    start("task_sampler", WITH_TASKS.copy()).compose(taskId -> awaitOpen(taskId, "draft").compose(task -> {
      JsonObject draft = task.getJsonObject("inputRequests").getJsonObject("draft");
      assertEquals("sampling/createMessage", draft.getString("method"));
      assertEquals(30, draft.getJsonObject("params").getInteger("maxTokens"));
      // Not a sampling result (no model): refused, still open.
      return update(taskId, new JsonObject().put("draft", new JsonObject().put("role", "assistant")
          .put("content", new JsonObject().put("type", "text").put("text", "hi"))));
    }).compose(refused -> {
      refused.assertError(-32602);
      return awaitOpen(taskId, "draft");
    }).compose(task -> update(taskId, new JsonObject().put("draft", sampled("a fine reply"))))
        .compose(ack -> client.awaitStatus(taskId, null, "completed")))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          assertEquals("model said a fine reply", text(task.getJsonObject("result")));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aTaskDoesNotAskForWhatTheCallDidNotDeclare(VertxTestContext test) {
    JsonObject tasksOnly = new JsonObject().put("extensions", WITH_TASKS.getJsonObject("extensions").copy());
    start("two_steps", tasksOnly).compose(taskId -> client.awaitStatus(taskId, null, "failed"))
        .onComplete(test.succeeding(task -> test.verify(() -> {
          assertEquals(-32021, task.getJsonObject("error").getInteger("code"));
          assertEquals(new JsonObject().put("elicitation", new JsonObject()),
              task.getJsonObject("error").getJsonObject("data").getJsonObject("requiredCapabilities"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void malformedUpdatesAreInvalidParamsAndUpdatesOfFinishedTasksAreIgnored(VertxTestContext test) {
    start("held_now", WITH_TASKS.copy()).compose(taskId -> client.request("tasks/update",
            new JsonObject().put("taskId", taskId).put("inputResponses", "yes")).capabilities(WITH_TASKS.copy()).send()
        .compose(notAnObject -> {
          notAnObject.assertError(-32602);
          return update(taskId, new JsonObject().put("k", "not an object"));
        })
        .compose(badValue -> {
          badValue.assertError(-32602);
          return held.next().compose(h -> h.release());
        })
        .compose(v -> client.awaitStatus(taskId, null, "completed"))
        .compose(done -> update(taskId, new JsonObject().put("k", accept("name", "late"))).compose(ack -> {
          assertAck(ack);
          return client.getTask(taskId, null);
        }).map(after -> {
          assertEquals(done, after.complete());
          return null;
        })))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }
}
