package io.mcpvertx.verticles;

import static io.mcpvertx.verticles.FeatureVerticles.assertNoViolations;
import static io.mcpvertx.verticles.FeatureVerticles.firstText;
import static io.mcpvertx.verticles.FeatureVerticles.toolNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.verticles.FeatureVerticles.LambdaTool;
import io.mcpvertx.verticles.impl.RemoteProtocol;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class RemoteLifecycleTest {

  private static final String TOOLS_CHANGED = "notifications/tools/list_changed";

  private static Future<JsonObject> callForError(McpTestClient client, String tool) {
    return client.request("tools/call", new JsonObject().put("name", tool).put("arguments",
        new JsonObject().put("text", "x"))).map(response -> {
          assertTrue(response.containsKey("error"), response.encode());
          return response.getJsonObject("error");
        });
  }

  /** A tool verticle answering with a fixed text. */
  private static LambdaTool says(String name, String text) {
    return new LambdaTool(Tool.builder(name).build(), (args, ctx) -> Future.succeededFuture(ToolResult.text(text)));
  }

  @Test
  void undeployingAToolVerticleRemovesTheToolAndTellsTheSession(Vertx vertx, VertxTestContext test) {
    McpServer server = FeatureVerticles.server(vertx);
    FeatureVerticles.client(vertx, server)
        .compose(client -> FeatureVerticles.attachOn(client, vertx, server).compose(remote ->
            vertx.deployVerticle(FeatureVerticles.echo("short-lived"))
                .compose(id -> client.awaitNotification(TOOLS_CHANGED).map(id))
                .compose(id -> vertx.undeploy(id))
                .compose(v -> client.awaitNotification(TOOLS_CHANGED))
                .compose(changed -> toolNames(client))
                .map(names -> {
                  assertEquals(List.of("local-tool"), names);
                  assertEquals(0, remote.size());
                  assertEquals(2, client.notifications(TOOLS_CHANGED).size());
                  assertNoViolations(client);
                  return names;
                })))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void callingAToolWhoseVerticleVanishedGivesAClearError(Vertx vertx, VertxTestContext test) {
    // A verticle on a node that crashed: announced, never withdrawn, nobody serves its address any more.
    JsonObject ghost = new JsonObject().put("kind", RemoteProtocol.KIND_TOOL).put("key", "ghost")
        .put("address", RemoteProtocol.CALL_PREFIX + "nobody-home")
        .put("definition", Tool.builder("ghost").build().toJson(ProtocolVersion.LATEST));
    McpServer server = FeatureVerticles.server(vertx);
    FeatureVerticles.client(vertx, server)
        .compose(client -> FeatureVerticles.attachOn(client, vertx, server)
            .compose(remote -> {
              vertx.eventBus().publish(RemoteProtocol.ANNOUNCE, ghost);
              return client.awaitNotification(TOOLS_CHANGED);
            })
            .compose(changed -> callForError(client, "ghost"))
            .map(error -> {
              assertEquals(JsonRpcErrorCodes.INTERNAL_ERROR, error.getInteger("code"));
              assertEquals("tool ghost is not available right now", error.getString("message"));
              assertNoViolations(client);
              return error;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aCallThatFindsNoHandlerAtTheChosenVerticleGoesToTheNextOne(Vertx vertx, VertxTestContext test) {
    // The newest announcement is a verticle that vanished without withdrawing (its node crashed, not yet noticed).
    LambdaTool real = says("fallback", "served");
    JsonObject ghost = new JsonObject().put("kind", RemoteProtocol.KIND_TOOL).put("key", "fallback")
        .put("address", RemoteProtocol.CALL_PREFIX + "nobody-home")
        .put("definition", real.tool().toJson(ProtocolVersion.LATEST));
    McpServer server = FeatureVerticles.server(vertx);
    FeatureVerticles.client(vertx, server)
        .compose(client -> FeatureVerticles.attachOn(client, vertx, server)
            .compose(remote -> vertx.deployVerticle(real))
            .compose(id -> client.awaitNotification(TOOLS_CHANGED))
            .compose(changed -> {
              vertx.eventBus().publish(RemoteProtocol.ANNOUNCE, ghost);
              return client.call("ping", null);
            })
            .compose(pong -> client.call("tools/call", new JsonObject().put("name", "fallback")))
            .map(result -> {
              assertEquals("served", firstText(result));
              assertEquals(1, client.notifications(TOOLS_CHANGED).size());
              assertNoViolations(client);
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void anInFlightCallIsAnsweredWhenItsVerticleIsUndeployed(Vertx vertx, VertxTestContext test) {
    Promise<Void> started = Promise.promise();
    Promise<String> cancelled = Promise.promise();
    LambdaTool forever = new LambdaTool(Tool.builder("forever").build(), (args, ctx) -> {
      ctx.onCancel(cancelled::tryComplete);
      started.complete();
      return Promise.<ToolResult>promise().future();
    });
    McpServer server = FeatureVerticles.server(vertx);
    FeatureVerticles.client(vertx, server)
        .compose(client -> FeatureVerticles.attachOn(client, vertx, server)
            .compose(remote -> vertx.deployVerticle(forever))
            .compose(id -> client.awaitNotification(TOOLS_CHANGED).compose(changed -> {
              Future<JsonObject> error = callForError(client, "forever");
              return started.future().compose(v -> vertx.undeploy(id)).compose(v -> error);
            }))
            .compose(error -> cancelled.future().map(reason -> {
              assertEquals(JsonRpcErrorCodes.INTERNAL_ERROR, error.getInteger("code"));
              assertTrue(error.getString("message").contains("forever"), error.getString("message"));
              assertNoViolations(client);
              return error;
            })))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aReannouncementOfAnUnchangedDefinitionCausesNoListChanged(Vertx vertx, VertxTestContext test) {
    McpServer first = FeatureVerticles.server(vertx);
    McpServer second = FeatureVerticles.server(vertx);
    FeatureVerticles.client(vertx, first)
        .compose(client -> FeatureVerticles.attachOn(client, vertx, first)
            .compose(remote -> vertx.deployVerticle(says("steady", "same")))
            .compose(id -> client.awaitNotification(TOOLS_CHANGED))
            // A second server attaching asks every feature verticle to announce itself again.
            .compose(changed -> FeatureVerticles.client(vertx, second))
            .compose(observer -> FeatureVerticles.attachOn(observer, vertx, second)
                .compose(remote -> observer.awaitNotification(TOOLS_CHANGED)))
            // The re-announcement reached the first bridge on the client's context before this ping.
            .compose(changed -> client.call("ping", null))
            .compose(pong -> toolNames(client))
            .map(names -> {
              assertEquals(List.of("local-tool", "steady"), names);
              assertEquals(1, client.notifications(TOOLS_CHANGED).size());
              assertNoViolations(client);
              return names;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void closingRemoteFeaturesRemovesItsFeaturesAndStopsFollowingAnnouncements(Vertx vertx, VertxTestContext test) {
    McpServer server = FeatureVerticles.server(vertx);
    McpServer other = FeatureVerticles.server(vertx);
    FeatureVerticles.client(vertx, server)
        .compose(client -> FeatureVerticles.attachOn(client, vertx, server).compose(remote ->
            vertx.deployVerticle(says("before-close", "x"))
                .compose(id -> client.awaitNotification(TOOLS_CHANGED))
                .compose(changed -> remote.close())
                .compose(v -> client.awaitNotification(TOOLS_CHANGED))
                .compose(changed -> FeatureVerticles.client(vertx, other))
                .compose(observer -> FeatureVerticles.attachOn(observer, vertx, other)
                    .compose(otherRemote -> observer.awaitNotification(TOOLS_CHANGED))
                    .compose(changed -> vertx.deployVerticle(says("after-close", "y")))
                    .compose(id -> observer.awaitNotification(TOOLS_CHANGED)))
                .compose(changed -> client.call("ping", null))
                .compose(pong -> toolNames(client))
                .map(names -> {
                  assertEquals(List.of("local-tool"), names);
                  assertEquals(0, remote.size());
                  assertEquals(2, client.notifications(TOOLS_CHANGED).size());
                  assertNoViolations(client);
                  return names;
                })))
        .onComplete(test.succeedingThenComplete());
  }

  /** A tool verticle answering with a fixed text, whose definition carries a description. */
  private static LambdaTool says(String name, String description, String text) {
    return new LambdaTool(Tool.builder(name).description(description).build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text(text)));
  }

  @Test
  void undeployingAnOlderDeploymentLeavesTheNewerOneServing(Vertx vertx, VertxTestContext test) {
    McpServer server = FeatureVerticles.server(vertx);
    FeatureVerticles.client(vertx, server)
        .compose(client -> FeatureVerticles.attachOn(client, vertx, server)
            .compose(remote -> vertx.deployVerticle(says("versioned", "v1")))
            .compose(v1 -> client.awaitNotification(TOOLS_CHANGED)
                // A new definition, so the newer deployment's arrival is heard as list_changed.
                .compose(changed -> vertx.deployVerticle(says("versioned", "second version", "v2")))
                .compose(v2 -> client.awaitNotification(TOOLS_CHANGED))
                .compose(changed -> vertx.undeploy(v1)))
            .compose(v -> client.call("ping", null))
            .compose(pong -> client.call("tools/call", new JsonObject().put("name", "versioned")))
            .map(result -> {
              assertEquals("v2", firstText(result));
              assertEquals(2, client.notifications(TOOLS_CHANGED).size());
              assertNoViolations(client);
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void undeployingTheNewerDeploymentFallsBackToTheOlderOneAndListsItsDefinition(Vertx vertx,
      VertxTestContext test) {
    McpServer server = FeatureVerticles.server(vertx);
    FeatureVerticles.client(vertx, server)
        .compose(client -> FeatureVerticles.attachOn(client, vertx, server)
            .compose(remote -> vertx.deployVerticle(says("versioned", "first version", "v1")))
            .compose(v1 -> client.awaitNotification(TOOLS_CHANGED))
            .compose(changed -> vertx.deployVerticle(says("versioned", "second version", "v2")))
            .compose(v2 -> client.awaitNotification(TOOLS_CHANGED)
                .compose(changed -> client.call("tools/call", new JsonObject().put("name", "versioned")))
                .compose(fromV2 -> {
                  assertEquals("v2", firstText(fromV2));
                  return vertx.undeploy(v2);
                }))
            .compose(v -> client.awaitNotification(TOOLS_CHANGED))
            .compose(changed -> client.call("tools/list", null))
            .compose(list -> {
              assertEquals("first version", list.getJsonArray("tools").getJsonObject(1).getString("description"));
              return client.call("tools/call", new JsonObject().put("name", "versioned"));
            })
            .map(result -> {
              assertEquals("v1", firstText(result));
              assertEquals(3, client.notifications(TOOLS_CHANGED).size());
              assertNoViolations(client);
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aSecondVerticleWithTheSameDefinitionCausesNoListChangedAndTheFirstTakesOverWhenItGoes(Vertx vertx,
      VertxTestContext test) {
    McpServer server = FeatureVerticles.server(vertx);
    McpServer observer = FeatureVerticles.server(vertx);
    FeatureVerticles.client(vertx, server)
        .compose(client -> FeatureVerticles.attachOn(client, vertx, server)
            .compose(remote -> vertx.deployVerticle(says("twin", "one")))
            .compose(one -> client.awaitNotification(TOOLS_CHANGED))
            .compose(changed -> vertx.deployVerticle(says("twin", "two")))
            .compose(two -> FeatureVerticles.client(vertx, observer)
                // Another bridge attaching makes both announce again; neither changes what is listed.
                .compose(watcher -> FeatureVerticles.attachOn(watcher, vertx, observer)
                    .compose(r -> watcher.awaitNotification(TOOLS_CHANGED)))
                .compose(changed -> client.call("ping", null))
                .compose(pong -> client.call("tools/call", new JsonObject().put("name", "twin")))
                .compose(fromTwo -> {
                  assertEquals("two", firstText(fromTwo));
                  return vertx.undeploy(two);
                }))
            .compose(v -> client.call("ping", null))
            .compose(pong -> client.call("tools/call", new JsonObject().put("name", "twin")))
            .map(result -> {
              assertEquals("one", firstText(result));
              assertEquals(1, client.notifications(TOOLS_CHANGED).size());
              assertNoViolations(client);
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aCallThatTakesLongerThanTheCallTimeoutFailsWithRequestTimeout(Vertx vertx, VertxTestContext test) {
    LambdaTool silent = new LambdaTool(Tool.builder("silent").build(),
        (args, ctx) -> Promise.<ToolResult>promise().future());
    McpServer server = FeatureVerticles.server(vertx);
    FeatureVerticles.client(vertx, server)
        .compose(client -> FeatureVerticles.attachOn(client, vertx, server, 20)
            .compose(remote -> vertx.deployVerticle(silent))
            .compose(id -> client.awaitNotification(TOOLS_CHANGED))
            .compose(changed -> callForError(client, "silent"))
            .map(error -> {
              assertEquals(JsonRpcErrorCodes.REQUEST_TIMEOUT, error.getInteger("code"));
              assertEquals("tool silent did not answer in time", error.getString("message"));
              assertNoViolations(client);
              return error;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void closingTheSessionCancelsTheRemoteHandler(Vertx vertx, VertxTestContext test) {
    Promise<Void> started = Promise.promise();
    Promise<String> cancelled = Promise.promise();
    LambdaTool forever = new LambdaTool(Tool.builder("forever").build(), (args, ctx) -> {
      ctx.onCancel(cancelled::tryComplete);
      started.complete();
      return Promise.<ToolResult>promise().future();
    });
    FeatureVerticles.withRemote(vertx, forever)
        .compose(client -> {
          client.request("tools/call", new JsonObject().put("name", "forever"));
          return started.future().compose(v -> client.close());
        })
        .compose(v -> cancelled.future())
        .onComplete(test.succeeding(reason -> test.verify(() -> {
          assertEquals("Session closed", reason);
          test.completeNow();
        })));
  }
}
