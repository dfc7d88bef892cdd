package io.mcpvertx.server.stateless;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptMessage;
import io.mcpvertx.server.prompts.PromptResult;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code subscriptions/listen}: acknowledged first, then only the notifications the client opted in to, each
 * tagged with the subscription id; nothing after the subscription is closed.
 */
@ExtendWith(VertxExtension.class)
class SubscriptionsListenTest {

  private static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

  private McpServer server;
  private StatelessTestClient client;

  @BeforeEach
  void setUp(Vertx vertx) {
    server = StatelessFixtures.server(vertx);
    client = StatelessTestClient.engine(vertx, server);
  }

  private static JsonObject listen(JsonObject filter) {
    return new JsonObject().put("notifications", filter);
  }

  private void addTool(String name) {
    server.tool(Tool.builder(name).description("added").build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text(name)));
  }

  private void addPrompt(String name) {
    server.prompt(Prompt.of(name, "added"),
        (args, ctx) -> Future.succeededFuture(PromptResult.of(PromptMessage.user(name))));
  }

  private static Object subscriptionOf(JsonObject frame) {
    return frame.getJsonObject("params").getJsonObject("_meta").getValue(SUBSCRIPTION_ID);
  }

  @Test
  void theAcknowledgementComesFirstAndNamesWhatIsHonored(VertxTestContext test) {
    client.request("subscriptions/listen", listen(new JsonObject().put("toolsListChanged", true)
            .put("resourceSubscriptions", new JsonArray().add(StatelessFixtures.DOC))))
        .id(io.mcpvertx.jsonrpc.JsonRpcId.of("sub-1")).listen()
        .compose(listening -> listening.frame(0))
        .onComplete(test.succeeding(ack -> test.verify(() -> {
          assertEquals("notifications/subscriptions/acknowledged", ack.getString("method"));
          assertEquals("sub-1", subscriptionOf(ack));
          assertEquals(new JsonObject().put("toolsListChanged", true)
                  .put("resourceSubscriptions", new JsonArray().add(StatelessFixtures.DOC)),
              ack.getJsonObject("params").getJsonObject("notifications"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void whatTheServerDoesNotOfferIsNotAcknowledged(Vertx vertx, VertxTestContext test) {
    McpServer toolsOnly = McpServer.create(vertx).tool(Tool.builder("only").build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text("only")));
    StatelessTestClient onlyTools = StatelessTestClient.engine(vertx, toolsOnly);
    onlyTools.request("subscriptions/listen", listen(new JsonObject().put("toolsListChanged", true)
            .put("promptsListChanged", true).put("resourcesListChanged", true)
            .put("resourceSubscriptions", new JsonArray().add("test://x")))).listen()
        .compose(listening -> listening.frame(0).compose(ack -> {
          assertEquals(new JsonObject().put("toolsListChanged", true),
              ack.getJsonObject("params").getJsonObject("notifications"));
          // as acknowledged: a prompt appearing later is not announced on this stream, a tool is
          toolsOnly.prompt(Prompt.of("late", "late"),
              (args, ctx) -> Future.succeededFuture(PromptResult.of(PromptMessage.user("late"))));
          toolsOnly.tool(Tool.builder("later").build(), (args, ctx) -> Future.succeededFuture(ToolResult.text("")));
          return listening.frame(1);
        }))
        .onComplete(test.succeeding(frame -> test.verify(() -> {
          assertEquals("notifications/tools/list_changed", frame.getString("method"));
          onlyTools.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void onlyTheChosenNotificationsArriveTaggedWithTheSubscription(VertxTestContext test) {
    client.request("subscriptions/listen", listen(new JsonObject().put("toolsListChanged", true))).listen()
        .compose(tools -> client.request("subscriptions/listen", listen(new JsonObject()
                .put("promptsListChanged", true)
                .put("resourceSubscriptions", new JsonArray().add(StatelessFixtures.DOC)))).listen()
            .compose(others -> tools.frame(0).compose(a -> others.frame(0)).compose(acks -> {
              // each change goes only where it was asked for; the order of arrival proves what was filtered
              addPrompt("new_prompt");
              server.resourceUpdated("test://not-watched");
              server.resourceUpdated(StatelessFixtures.DOC);
              addTool("new_tool");
              return tools.frame(1).compose(t -> others.frame(2)).compose(o -> tools.frames())
                  .compose(toolFrames -> others.frames().map(otherFrames -> {
                    assertEquals(List.of("notifications/subscriptions/acknowledged",
                        "notifications/tools/list_changed"), methods(toolFrames));
                    assertEquals(List.of("notifications/subscriptions/acknowledged",
                        "notifications/prompts/list_changed", "notifications/resources/updated"),
                        methods(otherFrames));
                    assertEquals(StatelessFixtures.DOC, otherFrames.get(2).getJsonObject("params").getString("uri"));
                    for (JsonObject frame : toolFrames) {
                      assertEquals(subscriptionOf(toolFrames.get(0)), subscriptionOf(frame));
                    }
                    for (JsonObject frame : otherFrames) {
                      assertEquals(subscriptionOf(otherFrames.get(0)), subscriptionOf(frame));
                    }
                    return null;
                  }));
            })))
        .onComplete(test.succeeding(v -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void nothingArrivesAfterClose(VertxTestContext test) {
    JsonObject tools = listen(new JsonObject().put("toolsListChanged", true));
    client.request("subscriptions/listen", tools).listen()
        .compose(first -> first.frame(0).map(ack -> {
          first.close();
          return first;
        }))
        .compose(first -> client.request("subscriptions/listen", tools).listen().compose(second -> second.frame(0)
            .compose(ack -> {
              addTool("after_close");
              return second.frame(1);
            })
            .compose(change -> first.frames())))
        .onComplete(test.succeeding(frames -> test.verify(() -> {
          assertEquals(List.of("notifications/subscriptions/acknowledged"), methods(frames));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  private static List<String> methods(List<JsonObject> frames) {
    return frames.stream().map(f -> f.getString("method")).toList();
  }
}
