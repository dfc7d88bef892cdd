package io.mcpvertx.server.stateless;

import static io.mcpvertx.testing.StatelessTestClient.TASKS_EXTENSION;
import static io.mcpvertx.testing.StatelessTestClient.WITH_TASKS;
import static io.mcpvertx.server.stateless.StatelessFixtures.accept;
import static io.mcpvertx.server.stateless.TaskTools.call;
import static io.mcpvertx.server.stateless.TaskTools.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.StatelessServer;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Task status notifications of the tasks extension: {@code subscriptions/listen} with
 * {@code notifications.taskIds}. Only a client that declared the extension may ask; the acknowledgement lists the
 * ids agreed to; then each change of a task the caller owns arrives as {@code notifications/tasks} with the full
 * task, as {@code tasks/get} would return it, tagged with the subscription. Nothing else travels there.
 *
 * <p>"Never sent" is shown with a sentinel: streams and tasks here share one in-memory store and one event loop,
 * so once a later change has arrived on a stream, an earlier one would have arrived before it.
 */
@ExtendWith(VertxExtension.class)
class TaskSubscriptionsTest {

  private static final Principal ALICE = new Principal("https://issuer.example", "alice", Set.of());
  private static final Principal BOB = new Principal("https://issuer.example", "bob", Set.of());
  private static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

  private McpServer server;
  private StatelessTestClient client;
  private HeldCalls held;

  @BeforeEach
  void setUp(Vertx vertx) {
    held = new HeldCalls();
    server = TaskTools.register(StatelessFixtures.server(vertx), held);
    client = StatelessTestClient.engine(vertx, server);
  }

  private Future<String> start(String tool, Principal principal) {
    return client.request("tools/call", call(tool)).capabilities(WITH_TASKS.copy()).principal(principal).send()
        .map(x -> x.task().getString("taskId"));
  }

  private Future<StatelessTestClient.Listening> listen(Principal principal, String... taskIds) {
    return client.request("subscriptions/listen", taskFilter(taskIds)).capabilities(WITH_TASKS.copy())
        .principal(principal).listen();
  }

  private static JsonObject taskFilter(String... taskIds) {
    return new JsonObject().put("notifications", new JsonObject().put("taskIds", new JsonArray(List.of(taskIds))));
  }

  /** A notifications/tasks frame about {@code taskId} in {@code status}. */
  private static boolean isTask(JsonObject frame, String taskId, String status) {
    return "notifications/tasks".equals(frame.getString("method"))
        && taskId.equals(frame.getJsonObject("params").getString("taskId"))
        && status.equals(frame.getJsonObject("params").getString("status"));
  }

  /** The statuses the stream reported for {@code taskId}, repeats of the same status collapsed. */
  private static List<String> statuses(List<JsonObject> frames, String taskId) {
    List<String> statuses = new ArrayList<>();
    for (JsonObject frame : frames) {
      if ("notifications/tasks".equals(frame.getString("method"))
          && taskId.equals(frame.getJsonObject("params").getString("taskId"))) {
        String status = frame.getJsonObject("params").getString("status");
        if (statuses.isEmpty() || !statuses.get(statuses.size() - 1).equals(status)) {
          statuses.add(status);
        }
      }
    }
    return statuses;
  }

  @Test
  void aClientThatDidNotDeclareTheExtensionMayNotAskForTaskNotifications(VertxTestContext test) {
    client.request("subscriptions/listen", taskFilter("some-task")).send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          JsonObject error = x.assertError(-32021);
          assertNotNull(error.getJsonObject("data").getJsonObject("requiredCapabilities")
              .getJsonObject("extensions").getJsonObject(TASKS_EXTENSION), error::encode);
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void theAcknowledgementListsTheDistinctTaskIdsAgreedTo(VertxTestContext test) {
    JsonArray ids = new JsonArray().add("a").add("b").add("a").add("").add(42);
    for (int i = 0; i < 150; i++) {
      ids.add("t" + i);
    }
    client.request("subscriptions/listen", new JsonObject().put("notifications", new JsonObject()
            .put("taskIds", ids))).capabilities(WITH_TASKS.copy()).listen()
        .compose(listening -> listening.frame(0))
        .onComplete(test.succeeding(ack -> test.verify(() -> {
          assertEquals("notifications/subscriptions/acknowledged", ack.getString("method"));
          JsonArray agreed = ack.getJsonObject("params").getJsonObject("notifications").getJsonArray("taskIds");
          assertEquals(100, agreed.size(), "a stream follows at most 100 tasks");
          assertEquals(List.of("a", "b", "t0"), agreed.getList().subList(0, 3));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aTaskIsFollowedThroughItsInputToItsResult(VertxTestContext test) {
    start("work_ask_work", null).compose(taskId -> listen(null, taskId).compose(stream -> stream.frame(1)
        .compose(first -> {
          assertTrue(isTask(first, taskId, "working"), first::encode);
          return held.next().compose(h -> h.release());
        })
        .compose(v -> stream.frame(f -> isTask(f, taskId, "input_required")))
        .compose(waiting -> {
          JsonObject who = waiting.getJsonObject("params").getJsonObject("inputRequests").getJsonObject("who");
          assertEquals("elicitation/create", who.getString("method"));
          return stream.frames();
        })
        .compose(before -> client.request("tasks/update", new JsonObject().put("taskId", taskId)
                .put("inputResponses", new JsonObject().put("who", accept("name", "Kim"))))
            .capabilities(WITH_TASKS.copy()).send()
            // working again once answered: the task stays input_required until then, so a later frame says so
            .compose(ack -> stream.frame(before.size(), f -> isTask(f, taskId, "working"))))
        .compose(working -> held.next().compose(h -> h.release()))
        .compose(v -> stream.frame(f -> isTask(f, taskId, "completed")))
        .compose(done -> client.getTask(taskId, null).compose(get -> stream.frames().map(frames -> {
          assertEquals(List.of("working", "input_required", "working", "completed"), statuses(frames, taskId));
          JsonObject params = done.getJsonObject("params").copy();
          JsonObject meta = (JsonObject) params.remove("_meta");
          assertEquals(frames.get(0).getJsonObject("params").getJsonObject("_meta").getValue(SUBSCRIPTION_ID),
              meta.getValue(SUBSCRIPTION_ID));
          for (JsonObject frame : frames) {
            assertEquals(meta.getValue(SUBSCRIPTION_ID),
                frame.getJsonObject("params").getJsonObject("_meta").getValue(SUBSCRIPTION_ID));
          }
          // what tasks/get says, without the result's own resultType and _meta
          JsonObject polled = get.complete().copy();
          polled.remove("resultType");
          polled.remove("_meta");
          assertEquals(polled, params);
          assertEquals("Finished for Kim", text(params.getJsonObject("result")));
          return null;
        })))))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aTaskThatAlreadyFinishedIsSentOnceAsItIs(VertxTestContext test) {
    start("held_now", null).compose(taskId -> held.next().compose(h -> h.release())
        .compose(v -> client.awaitStatus(taskId, null, "completed"))
        .compose(done -> listen(null, taskId).compose(stream -> stream.frame(1)).map(frame -> {
          assertTrue(isTask(frame, taskId, "completed"), frame::encode);
          assertEquals("done ", text(frame.getJsonObject("params").getJsonObject("result")));
          return null;
        })))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void anotherCallersTasksAreAgreedToButNeverSent(VertxTestContext test) {
    // Alice's, Bob's and an anonymous caller's task; Bob's and the anonymous stream also follow Alice's task.
    String[] ids = new String[3];
    List<StatelessTestClient.Listening> streams = new ArrayList<>();
    start("held_now", ALICE).compose(id -> {
      ids[0] = id;
      return start("held_now", BOB);
    }).compose(id -> {
      ids[1] = id;
      return start("held_now", null);
    }).compose(id -> {
      ids[2] = id;
      return listen(BOB, ids[0], ids[1]);
    }).compose(bob -> {
      streams.add(bob);
      return listen(null, ids[0], ids[2]);
    }).compose(anonymous -> {
      streams.add(anonymous);
      return listen(ALICE, ids[0]);
    }).compose(alice -> {
      streams.add(alice);
      return streams.get(0).frame(0);
    }).compose(ack -> {
      assertEquals(new JsonArray().add(ids[0]).add(ids[1]), ack.getJsonObject("params")
          .getJsonObject("notifications").getJsonArray("taskIds"));
      // Alice's task finishes first, then the sentinels.
      return held.next().compose(HeldCalls.Held::release);
    }).compose(v -> streams.get(2).frame(f -> isTask(f, ids[0], "completed")))
        .compose(v -> held.next().compose(HeldCalls.Held::release))
        .compose(v -> held.next().compose(HeldCalls.Held::release))
        .compose(v -> streams.get(0).frame(f -> isTask(f, ids[1], "completed")))
        .compose(v -> streams.get(1).frame(f -> isTask(f, ids[2], "completed")))
        .compose(v -> streams.get(0).frames())
        .compose(bobFrames -> streams.get(1).frames().map(anonymousFrames -> {
          assertEquals(List.of(), statuses(bobFrames, ids[0]));
          assertEquals(List.of(), statuses(anonymousFrames, ids[0]));
          assertEquals(List.of("working", "completed"), statuses(bobFrames, ids[1]));
          return null;
        }))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void progressAndLogsAreNeverSentOnceTheCallIsATask(VertxTestContext test) {
    JsonObject meta = StatelessTestClient.meta(WITH_TASKS).put("progressToken", "p-1")
        .put(StatelessServer.META_LOG_LEVEL, "debug");
    client.request("tools/call", call("chatty_later")).meta(meta).send().compose(x -> {
      // Before it became a task the call was an ordinary one: its stream carried what the handler reported.
      assertEquals(List.of("notifications/progress", "notifications/message"),
          x.notifications().stream().map(n -> n.getString("method")).toList());
      String taskId = x.task().getString("taskId");
      return listen(null, taskId).compose(stream -> stream.frame(1).compose(first -> held.next()
              .compose(h -> h.release()))
          .compose(v -> stream.frame(f -> isTask(f, taskId, "completed")))
          .compose(done -> stream.frames()));
    }).onComplete(test.succeeding(frames -> test.verify(() -> {
      for (JsonObject frame : frames.subList(1, frames.size())) {
        assertEquals("notifications/tasks", frame.getString("method"), frame::encode);
      }
      // and nothing after the response on the call's own stream (the client reports that as a violation)
      client.assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void aClosedStreamIsSentNothingMore(VertxTestContext test) {
    start("held_now", null).compose(taskId -> listen(null, taskId).compose(closed -> closed.frame(1)
        .compose(first -> {
          closed.close();
          return listen(null, taskId);
        })
        .compose(open -> open.frame(1).compose(first -> held.next().compose(h -> h.release()))
            .compose(v -> open.frame(f -> isTask(f, taskId, "completed"))))
        .compose(v -> closed.frames())
        .map(frames -> {
          assertEquals(List.of("working"), statuses(frames, taskId));
          return null;
        })))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }
}
